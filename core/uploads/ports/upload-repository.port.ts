import type { Upload } from '../domain/upload';

export type NewUpload = Omit<Upload, 'id' | 'createdAt'>;

/** Metadata of uploaded files; the bytes are in the FileStore. */
export interface UploadRepository {
  create(upload: NewUpload): Promise<Upload>;
  findById(id: string): Promise<Upload | null>;
  /** The owner's uploads, newest first. */
  listByOwner(ownerId: string, offset: number, limit: number): Promise<{ items: Upload[]; total: number }>;
  /** Where the FileStore keeps every upload of the owner (to remove the files with the account). */
  storageKeysByOwner(ownerId: string): Promise<string[]>;
  /** Deletes the row; true when there was one. */
  delete(id: string): Promise<boolean>;
}
