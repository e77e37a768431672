import type { ApiKey } from '../../api-keys/domain/api-key';
import type { ApiKeyRepository } from '../../api-keys/ports/api-key-repository.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ConflictError } from '../../shared/errors';
import { PREVIEW_TTL_SECONDS, type WidgetPreviewSession } from '../domain/widget-preview';
import type { PreviewTokens } from '../ports/preview-tokens.port';

/** How many of the owner's keys are looked through for one that covers the application. */
const KEYS_LOOKED_AT = 500;

/**
 * A widget preview session for the console (`POST /api/applications/:id/widget-preview`): a signed,
 * short-lived token bound to the application and to one of its active API keys, which the real widget in
 * the console's sandboxed preview frame sends in place of the key. The public API accepts it only from
 * that frame's opaque origin or the platform's own pages, only for this application, and counts it
 * against the key's rate limit; the application's allowed origins are not consulted, so previewing
 * needs no origin added by hand. Needs `write` on the application (core/access): 404 for others.
 */
export class IssueWidgetPreviewUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository; keys: ApiKeyRepository; tokens: PreviewTokens; clock: Clock }) {}

  async execute(applicationId: unknown, actor: Actor): Promise<WidgetPreviewSession> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    const key = previewKey(await this.deps.keys.listByOwner(application.ownerId, 0, KEYS_LOOKED_AT), application.ownerId, application.id);
    if (!key) throw new ConflictError('The preview chats with one of the application’s API keys: create a key for this application first');
    const expiresAt = Math.floor(this.deps.clock.now().getTime() / 1000) + PREVIEW_TTL_SECONDS;
    const token = this.deps.tokens.issue({ applicationId: application.id, keyId: key.id, ownerId: application.ownerId, expiresAt });
    return { token, expiresAt: new Date(expiresAt * 1000).toISOString(), title: application.name, key: { id: key.id, name: key.name, keyHint: key.keyHint } };
  }
}

/** The key a preview chats with: an active key of the application's own, else an active key of all the owner's applications; the newest first. */
function previewKey(keys: ApiKey[], ownerId: string, applicationId: string): ApiKey | undefined {
  const active = keys.filter((k) => k.ownerId === ownerId && k.revokedAt === null).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return active.find((k) => k.applicationId === applicationId) ?? active.find((k) => k.applicationId === null);
}
