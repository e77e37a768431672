import type { UploadRepository } from '../../../core/uploads/ports/upload-repository.port';
import type { FileStore } from '../../../core/uploads/ports/file-store.port';
import type { Container } from 'inversify';
import { join } from 'node:path';
import { LocalDiskFileStore } from '../../../adapters/files/local-disk.file-store';
import { uploadsRouter } from '../../../adapters/http/uploads/uploads.router';
import { TypeOrmUploadRepository } from '../../../adapters/persistence/uploads/type-orm-upload.repository';
import { CreateUploadUseCase } from '../../../core/uploads/use-cases/create-upload.use-case';
import { DeleteUploadUseCase } from '../../../core/uploads/use-cases/delete-upload.use-case';
import { GetUploadUseCase } from '../../../core/uploads/use-cases/get-upload.use-case';
import { ListUploadsUseCase } from '../../../core/uploads/use-cases/list-uploads.use-case';
import { ReadUploadContentUseCase } from '../../../core/uploads/use-cases/read-upload-content.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve, token } from '../../shared/tokens';

export const UPLOAD_TOKENS = {
  UploadRepository: token<UploadRepository>('UploadRepository'),
  /** File contents (uploads and knowledge sources), under DATA_DIR/uploads. */
  FileStore: token<FileStore>('FileStore'),
} as const;

/** The file store, bound once for every area that keeps files. */
export function bindFileStore(c: Container): void {
  if (c.isBound(UPLOAD_TOKENS.FileStore)) return;
  provide(c, UPLOAD_TOKENS.FileStore, (get) => new LocalDiskFileStore(join(get(TOKENS.Config).dataDir, 'uploads')));
}

/** Uploads (SPEC 4.12, 8): files checked by content, stored under server-made names, served as attachments. */
export const uploadsModule: AppModule = {
  name: 'uploads',
  bind(c: Container) {
    bindFileStore(c);
    provide(c, UPLOAD_TOKENS.UploadRepository, (get) => new TypeOrmUploadRepository(get(TOKENS.DataSource)));
    const deps = (get: Getter) => ({ uploads: get(UPLOAD_TOKENS.UploadRepository), files: get(UPLOAD_TOKENS.FileStore) });
    provide(c, CreateUploadUseCase, (get) => new CreateUploadUseCase(deps(get)));
    provide(c, ListUploadsUseCase, (get) => new ListUploadsUseCase(deps(get)));
    provide(c, GetUploadUseCase, (get) => new GetUploadUseCase(deps(get)));
    provide(c, ReadUploadContentUseCase, (get) => new ReadUploadContentUseCase(deps(get)));
    provide(c, DeleteUploadUseCase, (get) => new DeleteUploadUseCase(deps(get)));
  },
  routers: (c) => [
    uploadsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateUploadUseCase),
      list: resolve(c, ListUploadsUseCase),
      get: resolve(c, GetUploadUseCase),
      content: resolve(c, ReadUploadContentUseCase),
      remove: resolve(c, DeleteUploadUseCase),
    }),
  ],
};
