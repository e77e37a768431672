import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Upload } from '../domain/upload';
import type { UploadRepository } from '../ports/upload-repository.port';

/** The caller's upload, or a 404 that does not tell "not yours" from "does not exist". */
export async function findOwnedUpload(uploads: UploadRepository, id: unknown, actor: Actor): Promise<Upload> {
  const upload = isUuid(id) ? await uploads.findById(id) : null;
  if (!upload || upload.ownerId !== actor.userId) throw new NotFoundError('Upload');
  return upload;
}
