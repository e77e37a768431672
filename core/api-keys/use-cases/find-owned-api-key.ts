import type { AccessAction } from '../../access/roles';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { authorizeUnderApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { isUuid } from '../../shared/ids';
import type { ApiKey } from '../domain/api-key';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';

/**
 * The API key if the caller may perform `action` on it: a key scoped to an application follows the
 * application's owner and team (core/access; the strictest action by default), an account-wide key its
 * owner alone. Otherwise a 404 that does not tell "not yours" from "does not exist".
 */
export async function findOwnedApiKey(
  keys: ApiKeyRepository,
  id: unknown,
  actor: Actor,
  action: AccessAction = 'delete',
  applications: ApplicationRepository | null = null,
): Promise<ApiKey> {
  const key = isUuid(id) ? await keys.findById(id) : null;
  await authorizeUnderApplication(key, actor, action, 'API key', applications);
  return key!;
}
