import type { Container } from 'inversify';
import type { Logger } from '../../../adapters/logging/logger';
import { StoredFilesCleanup } from '../../../core/uploads/use-cases/stored-files-cleanup';
import type { Getter } from '../../shared/app-module';
import { TOKENS } from '../../shared/tokens';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import { UPLOAD_TOKENS } from './uploads.tokens';

/**
 * The removal of an account's or application's stored files, for the areas of the app that keep files
 * (uploads, knowledge); undefined when the app keeps none. Called while resolving, after every module has
 * bound its tokens. Only the error's code or message is logged: never a storage key, a path or a secret.
 */
export function storedFilesCleanup(c: Container, get: Getter): StoredFilesCleanup | undefined {
  if (!c.isBound(UPLOAD_TOKENS.FileStore)) return undefined;
  const logger = get<Logger>(TOKENS.Logger);
  return new StoredFilesCleanup({
    files: get(UPLOAD_TOKENS.FileStore),
    uploads: c.isBound(UPLOAD_TOKENS.UploadRepository) ? get(UPLOAD_TOKENS.UploadRepository) : undefined,
    documents: c.isBound(KNOWLEDGE_TOKENS.DocumentRepository) ? get(KNOWLEDGE_TOKENS.DocumentRepository) : undefined,
    onError: (error, summary) => logger.error({ reason: reasonOf(error) }, summary),
  });
}

/** A file system error's code (EACCES, EBUSY...), whose message would name the path; else the message. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
