import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { NotFoundError } from '../../core/shared/errors';
import type { FileStore } from '../../core/uploads/ports/file-store.port';

/** Server-made keys only: no dots but one extension, so no key can climb out of the root. */
const KEY = /^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*(?:\.[a-z0-9]{1,10})?$/;

/** Files under one directory (DATA_DIR/uploads by default), written to a temporary name and renamed into place. */
export class LocalDiskFileStore implements FileStore {
  constructor(private readonly root: string) {}

  async write(key: string, data: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    try {
      await writeFile(partial, data, { flag: 'wx', mode: 0o600 });
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      throw missing(error);
    }
  }

  async stream(key: string): Promise<Readable> {
    // Opened here so a missing file is a 404 before any header is sent, not a broken stream after.
    const handle = await open(this.pathOf(key), 'r').catch((error: unknown) => {
      throw missing(error);
    });
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deleteUnder(prefix: string): Promise<void> {
    const path = this.pathOf(prefix);
    if (path === this.root) throw new Error('Invalid storage key');
    await rm(path, { recursive: true, force: true });
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error('Invalid storage key');
    return join(this.root, key);
  }
}

function missing(error: unknown): unknown {
  return (error as { code?: string }).code === 'ENOENT' ? new NotFoundError('File') : error;
}
