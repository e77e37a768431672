import type { NewDomainEvent } from '../../events/domain/domain-event';
import type { ApiKey } from '../domain/api-key';

/** `api_key.revoked` (EVENTS.md): ids and the last four characters, never the key. */
export const apiKeyRevoked = (key: ApiKey): NewDomainEvent => ({
  type: 'api_key.revoked',
  ownerId: key.ownerId,
  applicationId: key.applicationId,
  data: { apiKeyId: key.id, applicationId: key.applicationId, hint: key.keyHint },
});
