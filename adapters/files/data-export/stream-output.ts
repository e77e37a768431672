import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';

/** A file written with backpressure: each write waits while the stream's buffer is full. */
export class StreamOutput {
  private readonly stream: WriteStream;
  private failed: Error | null = null;

  constructor(path: string) {
    this.stream = createWriteStream(path, { flags: 'wx' });
    this.stream.on('error', (error) => (this.failed = error));
  }

  async write(text: string): Promise<void> {
    if (this.failed) throw this.failed;
    if (!this.stream.write(text)) await this.drained();
    if (this.failed) throw this.failed;
  }

  /** Resolves on 'drain', or on 'error' (reported by the caller), leaving no listener behind. */
  private drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.stream.off('drain', done);
        this.stream.off('error', done);
        resolve();
      };
      this.stream.on('drain', done);
      this.stream.on('error', done);
    });
  }

  async close(): Promise<number> {
    if (this.failed) throw this.failed;
    this.stream.end();
    await once(this.stream, 'finish');
    if (this.failed) throw this.failed;
    return this.stream.bytesWritten;
  }

  /** After a failure: closes without waiting for anything more. */
  destroy(): void {
    this.stream.destroy();
  }
}
