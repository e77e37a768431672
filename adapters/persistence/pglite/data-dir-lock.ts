import { closeSync, constants, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type * as NativeLocks from 'fs-native-extensions';
import { PlatformError } from '../../../core/shared/platform-errors';

// Loaded on the first lock only: a deployment on PostgreSQL never needs the native addon.
let native: typeof NativeLocks | undefined;
const nativeLocks = (): typeof NativeLocks => (native ??= require('fs-native-extensions') as typeof NativeLocks);

/** Who holds an embedded database's folder, as the holder wrote it into the lock file. */
export interface LockHolder {
  pid: number;
  /** What the holder runs, e.g. `npm start`, `npm run migrate`. */
  command: string;
  hostname: string;
  /** ISO time the holder took the lock. */
  since: string;
  /** The marketplace service this holder serves, once it listens (how `marketplace:seed` reaches it). */
  marketplaceUrl?: string;
}

/** Another process holds the folder: carries the folder and what the holder wrote about itself (null if unreadable). */
export class DataDirLockedError extends PlatformError {
  readonly failure = 'data_dir_locked' as const;
  constructor(
    readonly databaseDir: string,
    readonly holder: LockHolder | null,
  ) {
    super(`The embedded database in ${databaseDir} is in use by ${holder ? `process ${holder.pid} (${holder.command})` : 'another process'}`);
  }
}

const LOCK_FILE = 'pglite.lock';

/**
 * The exclusive lock on an embedded PGlite folder: PGlite serves one process, and a second one opening the same files
 * corrupts them. The lock is the kernel's (an open-file-description lock through fs-native-extensions, flock on macOS,
 * LockFileEx on Windows) on `<dir>/pglite.lock`, so it belongs to the open file: a process that dies in any way, SIGKILL
 * included, leaves a file nobody holds, and the next opener takes it over at once (no staleness to guess from times).
 * The holder writes its pid and command into the file, which is how a refused opener names it. The file is never
 * deleted: a path unlinked while another process has it open would let two processes lock two different files.
 */
export class DataDirLock {
  private released = false;

  private constructor(
    private readonly fd: number,
    private holder: LockHolder,
  ) {}

  /** Takes the lock on `dir` (the folder holding the database's folder) for this process, or throws DataDirLockedError. */
  static acquire(dir: string, command: string, databaseDir = dir): DataDirLock {
    const path = join(dir, LOCK_FILE);
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
    let locked = false;
    try {
      locked = nativeLocks().tryLock(fd);
    } finally {
      if (!locked) closeSync(fd);
    }
    if (!locked) throw new DataDirLockedError(databaseDir, readHolder(path));
    const lock = new DataDirLock(fd, { pid: process.pid, command, hostname: hostname(), since: new Date().toISOString() });
    lock.write();
    return lock;
  }

  /** What the holder of `dir`'s lock says about itself now (null when none, or while it writes). */
  static holderOf(dir: string): LockHolder | null {
    return readHolder(join(dir, LOCK_FILE));
  }

  /** Adds to what the holder says about itself (the marketplace's address once it listens). */
  note(details: Pick<LockHolder, 'marketplaceUrl'>): void {
    this.holder = { ...this.holder, ...details };
    this.write();
  }

  /** Lets the folder go (idempotent); the file stays, empty. */
  release(): void {
    if (this.released) return;
    this.released = true;
    try {
      ftruncateSync(this.fd, 0);
      nativeLocks().unlock(this.fd);
    } finally {
      closeSync(this.fd);
    }
  }

  private write(): void {
    const text = JSON.stringify(this.holder) + '\n';
    ftruncateSync(this.fd, 0);
    writeSync(this.fd, text, 0);
  }
}

/** What the holder wrote, or null when the file is empty or half-written (the holder is writing it right now). */
function readHolder(path: string): LockHolder | null {
  try {
    if (!existsSync(path)) return null;
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || typeof value.command !== 'string') return null;
    return {
      pid: value.pid,
      command: value.command,
      hostname: typeof value.hostname === 'string' ? value.hostname : '',
      since: typeof value.since === 'string' ? value.since : '',
      ...(typeof value.marketplaceUrl === 'string' ? { marketplaceUrl: value.marketplaceUrl } : {}),
    };
  } catch {
    return null;
  }
}
