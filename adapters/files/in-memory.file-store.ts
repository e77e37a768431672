import { Readable } from 'node:stream';
import { NotFoundError } from '../../core/shared/errors';
import type { FileStore } from '../../core/uploads/ports/file-store.port';

/** For unit tests: files in a map. */
export class InMemoryFileStore implements FileStore {
  readonly files = new Map<string, Buffer>();

  async write(key: string, data: Buffer): Promise<void> {
    this.files.set(key, Buffer.from(data));
  }

  async read(key: string): Promise<Buffer> {
    const data = this.files.get(key);
    if (!data) throw new NotFoundError('File');
    return Buffer.from(data);
  }

  async stream(key: string): Promise<Readable> {
    return Readable.from([await this.read(key)]);
  }

  async delete(key: string): Promise<void> {
    this.files.delete(key);
  }

  async deleteUnder(prefix: string): Promise<void> {
    for (const key of [...this.files.keys()]) if (key.startsWith(`${prefix}/`)) this.files.delete(key);
  }
}
