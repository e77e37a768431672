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
    if (!this.stream.write(text)) await Promise.race([once(this.stream, 'drain'), once(this.stream, 'error')]);
    if (this.failed) throw this.failed;
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
