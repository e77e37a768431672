import type { Readable } from 'node:stream';

/**
 * Where file contents live (uploads, knowledge sources): local disk under DATA_DIR by default. Keys are
 * made by the server (letters, digits, `-`, `/` between segments, one optional extension), never from
 * client input.
 */
export interface FileStore {
  /** Stores `data` under `key` in one step: a reader sees the whole file or none. */
  write(key: string, data: Buffer): Promise<void>;
  /** The whole file; NotFoundError when there is none. */
  read(key: string): Promise<Buffer>;
  /** The file as a stream, for serving; NotFoundError when there is none. */
  stream(key: string): Promise<Readable>;
  /** Removes the file; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix/` (a folder of keys); nothing happens when there is none. */
  deleteUnder(prefix: string): Promise<void>;
}
