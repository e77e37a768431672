import type { FileStore } from '../ports/file-store.port';

/** Where the storage keys of the files kept for an account or an application are found. */
export interface StoredFileKeys {
  /** Uploads of the owner. */
  uploads?: { storageKeysByOwner(ownerId: string): Promise<string[]> };
  /** Knowledge document sources, by application or by the owner of the applications. */
  documents?: {
    storageKeysByApplication(applicationId: string): Promise<string[]>;
    storageKeysByOwner(ownerId: string): Promise<string[]>;
  };
}

export interface StoredFilesCleanupDeps extends StoredFileKeys {
  files: FileStore;
  /**
   * Files that could not be found or removed: reported here, in words without keys or paths, and never
   * a failure of the deletion (the account or application stays deleted).
   */
  onError?: (error: unknown, summary: string) => void;
}

/** The removal of files collected before their rows go; runs once, never throws. */
export type PendingFileRemoval = () => Promise<void>;

/**
 * Removes the stored files that belong to an account or an application when it is deleted. The keys are
 * collected first, while the rows that name them still exist; the rows then go (by cascade) and the
 * files after them, so no row ever points at a missing file. A failure to remove a file is reported,
 * not thrown: leaving an orphan behind is better than answering a deletion that did happen with an error.
 */
export class StoredFilesCleanup {
  constructor(private readonly deps: StoredFilesCleanupDeps) {}

  /** Collects the files of everything the user owns: their uploads and their applications' documents. */
  async forAccount(ownerId: string): Promise<PendingFileRemoval> {
    return this.collect(async () => {
      const [uploads, documents] = await Promise.all([
        this.deps.uploads?.storageKeysByOwner(ownerId) ?? [],
        this.deps.documents?.storageKeysByOwner(ownerId) ?? [],
      ]);
      return [...uploads, ...documents];
    });
  }

  /** Collects the files of one application: its documents' sources. */
  async forApplication(applicationId: string): Promise<PendingFileRemoval> {
    return this.collect(async () => (await this.deps.documents?.storageKeysByApplication(applicationId)) ?? []);
  }

  private async collect(keysOf: () => Promise<string[]>): Promise<PendingFileRemoval> {
    try {
      return this.removal(await keysOf());
    } catch (error) {
      this.report(error, 'the stored files to remove could not be listed; they are left behind');
      return async () => {};
    }
  }

  private report(error: unknown, summary: string): void {
    try {
      this.deps.onError?.(error, summary);
    } catch {
      // Reporting is best effort too.
    }
  }

  private removal(keys: string[]): PendingFileRemoval {
    const unique = [...new Set(keys)];
    return async () => {
      let failed = 0;
      let firstError: unknown;
      for (const key of unique) {
        try {
          await this.deps.files.delete(key);
        } catch (error) {
          failed += 1;
          firstError ??= error;
        }
      }
      if (failed > 0) this.report(firstError, `${failed} of ${unique.length} stored files could not be removed; they are left behind`);
    };
  }
}
