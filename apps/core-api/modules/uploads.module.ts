import type { Container } from 'inversify';
import { uploadsRouter } from '../../../adapters/http/uploads/uploads.router';
import { TypeOrmUploadRepository } from '../../../adapters/persistence/uploads/type-orm-upload.repository';
import { CreateUploadUseCase } from '../../../core/uploads/use-cases/create-upload.use-case';
import { DeleteUploadUseCase } from '../../../core/uploads/use-cases/delete-upload.use-case';
import { GetUploadUseCase } from '../../../core/uploads/use-cases/get-upload.use-case';
import { ListUploadsUseCase } from '../../../core/uploads/use-cases/list-uploads.use-case';
import { ReadUploadContentUseCase } from '../../../core/uploads/use-cases/read-upload-content.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { bindFileStore } from './file-store';
import { UPLOAD_TOKENS } from './uploads.tokens';

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
