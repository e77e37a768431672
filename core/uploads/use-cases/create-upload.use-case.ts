import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { cleanFileName, toUploadView, type UploadView } from '../domain/upload';
import { detectFileType } from '../domain/file-type';
import type { FileStore } from '../ports/file-store.port';
import type { UploadRepository } from '../ports/upload-repository.port';
import { uploadsFolder } from './stored-files-cleanup';

/** A file as received: the client's name for it and its bytes (already bounded by the HTTP layer). */
export interface ReceivedFile {
  name: string;
  bytes: Buffer;
}

/** Stores one of the caller's files after checking its type by content; the stored name is the server's. */
export class CreateUploadUseCase {
  constructor(private readonly deps: { uploads: UploadRepository; files: FileStore }) {}

  async execute(file: ReceivedFile | undefined, actor: Actor): Promise<UploadView> {
    if (!file) throw ValidationError.field('file', 'file is required (multipart field "file")');
    const fileName = cleanFileName(file.name);
    const type = detectFileType(file.bytes, fileName);
    // Under the owner's folder: deleting the account also removes a file whose row it never saw.
    const storageKey = `${uploadsFolder(actor.userId)}/${newId()}${type.extension}`;
    await this.deps.files.write(storageKey, file.bytes);
    try {
      const upload = await this.deps.uploads.create({
        ownerId: actor.userId,
        fileName,
        mimeType: type.mime,
        kind: type.kind,
        sizeBytes: file.bytes.length,
        storageKey,
      });
      return toUploadView(upload);
    } catch (error) {
      // No row points at the file: remove it rather than leave an orphan behind.
      await this.deps.files.delete(storageKey);
      throw error;
    }
  }
}
