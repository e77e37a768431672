import type { Actor } from '../../shared/actor';
import type { FileStore } from '../ports/file-store.port';
import type { UploadRepository } from '../ports/upload-repository.port';
import { findOwnedUpload } from './find-owned-upload';

/** Deletes one of the caller's uploads: the row first, so no row ever points at a missing file. */
export class DeleteUploadUseCase {
  constructor(private readonly deps: { uploads: UploadRepository; files: FileStore }) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const upload = await findOwnedUpload(this.deps.uploads, id, actor);
    if (await this.deps.uploads.delete(upload.id)) await this.deps.files.delete(upload.storageKey);
  }
}
