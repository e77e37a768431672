import type { Container } from 'inversify';
import { join } from 'node:path';
import { LocalDiskFileStore } from '../../../adapters/files/local-disk.file-store';
import { provide } from '../../shared/app-module';
import { TOKENS } from '../../shared/tokens';
import { UPLOAD_TOKENS } from './uploads.tokens';

/** The file store, bound once for every area that keeps files. */
export function bindFileStore(c: Container): void {
  if (c.isBound(UPLOAD_TOKENS.FileStore)) return;
  provide(c, UPLOAD_TOKENS.FileStore, (get) => new LocalDiskFileStore(join(get(TOKENS.Config).dataDir, 'uploads')));
}
