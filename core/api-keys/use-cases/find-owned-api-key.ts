import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { ApiKey } from '../domain/api-key';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';

/** The caller's API key, or a 404 that does not tell "not yours" from "does not exist". */
export async function findOwnedApiKey(keys: ApiKeyRepository, id: unknown, actor: Actor): Promise<ApiKey> {
  const key = isUuid(id) ? await keys.findById(id) : null;
  if (!key || key.ownerId !== actor.userId) throw new NotFoundError('API key');
  return key;
}
