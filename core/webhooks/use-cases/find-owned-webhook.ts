import type { AccessAction } from '../../access/roles';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { authorizeUnderApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { isUuid } from '../../shared/ids';
import type { Webhook } from '../domain/webhook';
import type { WebhookRepository } from '../ports/webhook-repository.port';

/**
 * The webhook if the caller may perform `action` on it: one scoped to an application follows the
 * application's owner and team (core/access; the strictest action by default), an account-wide one its
 * owner alone. Another user's (or none) is the same 404.
 */
export async function findOwnedWebhook(
  webhooks: WebhookRepository,
  id: string,
  actor: Actor,
  action: AccessAction = 'delete',
  applications: ApplicationRepository | null = null,
): Promise<Webhook> {
  const webhook = isUuid(id) ? await webhooks.findById(id) : null;
  await authorizeUnderApplication(webhook, actor, action, 'Webhook', applications);
  return webhook!;
}
