import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { KeyHasher } from '../../shared/key-hasher.port';
import type { OwnerLimit } from '../../shared/owner-limit';
import { num, idField, str, validate } from '../../shared/validation';
import { API_KEY_PREFIX, generateRawApiKey, keyHintOf, RATE_LIMIT_RANGE, toApiKeyView, type CreatedApiKeyView } from '../domain/api-key';
import type { ApiKeyRepository } from '../ports/api-key-repository.port';

const { min, max } = RATE_LIMIT_RANGE;

const schema = yup.object({
  name: str().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters'),
  applicationId: idField().nullable(),
  rateLimit: num()
    .integer(`rateLimit must be a whole number of requests per minute from ${min} to ${max}`)
    .min(min, `rateLimit must be a whole number of requests per minute from ${min} to ${max}`)
    .max(max, `rateLimit must be a whole number of requests per minute from ${min} to ${max}`),
});

/**
 * Optional: how many active API keys the key's owner may hold (the owner's plan's limit plugs in here; the
 * caller, when not the owner, only changes what the refusal says); null for no limit. The repository
 * enforces it atomically with the insert, so concurrent creations cannot pass it.
 */
export type ApiKeyQuotaGuard = (ownerId: string, callerId: string) => Promise<OwnerLimit | null>;

/**
 * Creates an API key scoped to one of the caller's applications (or, without `applicationId`, to all
 * of them). The raw key is in this answer only; the store keeps its digest, prefix and last four characters.
 */
export class CreateApiKeyUseCase {
  constructor(
    private readonly deps: { keys: ApiKeyRepository; applications: ApplicationRepository; hasher: KeyHasher; guard?: ApiKeyQuotaGuard },
  ) {}

  async execute(input: unknown, actor: Actor): Promise<CreatedApiKeyView> {
    const body = await validate(schema, input);
    const application = body.applicationId ? await findOwnedApplication(this.deps.applications, body.applicationId, actor, 'manage') : null;
    // A key of an application belongs to the application's owner (a team's Owner): their plan counts it.
    const ownerId = application?.ownerId ?? actor.userId;
    const limit = (await this.deps.guard?.(ownerId, actor.userId)) ?? null;
    const raw = generateRawApiKey();
    const key = await this.deps.keys.create({
      ownerId,
      applicationId: application?.id ?? null,
      name: body.name ?? 'API key',
      keyHash: this.deps.hasher.hash(raw),
      keyPrefix: API_KEY_PREFIX,
      keyHint: keyHintOf(raw),
      rateLimit: body.rateLimit ?? RATE_LIMIT_RANGE.default,
    }, limit);
    return { ...toApiKeyView(key), key: raw };
  }
}
