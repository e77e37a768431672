import type { UploadRepository } from '../../../core/uploads/ports/upload-repository.port';
import type { FileStore } from '../../../core/uploads/ports/file-store.port';
import { token } from '../../shared/tokens';

export const UPLOAD_TOKENS = {
  UploadRepository: token<UploadRepository>('UploadRepository'),
  /** File contents (uploads and knowledge sources), under DATA_DIR/uploads. */
  FileStore: token<FileStore>('FileStore'),
} as const;
