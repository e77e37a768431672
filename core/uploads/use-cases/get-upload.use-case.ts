import type { Actor } from '../../shared/actor';
import { toUploadView, type UploadView } from '../domain/upload';
import type { UploadRepository } from '../ports/upload-repository.port';
import { findOwnedUpload } from './find-owned-upload';

/** Metadata of one of the caller's uploads. */
export class GetUploadUseCase {
  constructor(private readonly deps: { uploads: UploadRepository }) {}

  async execute(id: string, actor: Actor): Promise<UploadView> {
    return toUploadView(await findOwnedUpload(this.deps.uploads, id, actor));
  }
}
