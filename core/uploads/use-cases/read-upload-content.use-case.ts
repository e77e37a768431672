import type { Readable } from 'node:stream';
import type { Actor } from '../../shared/actor';
import type { Upload } from '../domain/upload';
import type { FileStore } from '../ports/file-store.port';
import type { UploadRepository } from '../ports/upload-repository.port';
import { findOwnedUpload } from './find-owned-upload';

/** The bytes of one of the caller's uploads, with the metadata needed to serve them. */
export class ReadUploadContentUseCase {
  constructor(private readonly deps: { uploads: UploadRepository; files: FileStore }) {}

  async execute(id: string, actor: Actor): Promise<{ upload: Upload; content: Readable }> {
    const upload = await findOwnedUpload(this.deps.uploads, id, actor);
    return { upload, content: await this.deps.files.stream(upload.storageKey) };
  }
}
