import type { FileStore } from '../ports/file-store.port';

/**
 * The folders files are stored under: an owner's uploads, and each application's document sources
 * under its owner. Keys made before the folders existed (`files/<id>`, `knowledge/<id>`) are found
 * through their rows.
 */
export const uploadsFolder = (ownerId: string): string => `files/${ownerId}`;
export const documentsFolder = (application: { id: string; ownerId: string }): string => `knowledge/${application.ownerId}/${application.id}`;
const ownerDocumentsFolder = (ownerId: string): string => `knowledge/${ownerId}`;

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
 * files after them, so no row ever points at a missing file. Their folders go too, with any file an
 * upload made meanwhile: one whose row was stored after the keys were listed (the cascade took the row),
 * or that is still being written (its row will not be stored, its owner being gone, and the upload
 * removes it). A failure to remove a file is reported, not thrown: leaving an orphan behind is better
 * than answering a deletion that did happen with an error.
 */
export class StoredFilesCleanup {
  constructor(private readonly deps: StoredFilesCleanupDeps) {}

  /** Collects the files of everything the user owns: their uploads and their applications' documents. */
  async forAccount(ownerId: string): Promise<PendingFileRemoval> {
    return this.collect([uploadsFolder(ownerId), ownerDocumentsFolder(ownerId)], async () => {
      const [uploads, documents] = await Promise.all([
        this.deps.uploads?.storageKeysByOwner(ownerId) ?? [],
        this.deps.documents?.storageKeysByOwner(ownerId) ?? [],
      ]);
      return [...uploads, ...documents];
    });
  }

  /** Collects the files of one application: its documents' sources. */
  async forApplication(application: { id: string; ownerId: string }): Promise<PendingFileRemoval> {
    return this.collect([documentsFolder(application)], async () => (await this.deps.documents?.storageKeysByApplication(application.id)) ?? []);
  }

  private async collect(folders: string[], keysOf: () => Promise<string[]>): Promise<PendingFileRemoval> {
    let keys: string[] = [];
    try {
      keys = await keysOf();
    } catch (error) {
      this.report(error, 'the stored files to remove could not be listed; only their folders are removed');
    }
    return this.removal(keys, folders);
  }

  private report(error: unknown, summary: string): void {
    try {
      this.deps.onError?.(error, summary);
    } catch {
      // Reporting is best effort too.
    }
  }

  private removal(keys: string[], folders: string[]): PendingFileRemoval {
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
      for (const folder of folders) {
        try {
          await this.deps.files.deleteUnder(folder);
        } catch (error) {
          this.report(error, 'a folder of stored files could not be removed; it is left behind');
        }
      }
    };
  }
}
