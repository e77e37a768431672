import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Webhook } from '../domain/webhook';
import type { WebhookRepository } from '../ports/webhook-repository.port';

/** The caller's webhook; another user's (or none) is the same 404. */
export async function findOwnedWebhook(webhooks: WebhookRepository, id: string, actor: Actor): Promise<Webhook> {
  const webhook = isUuid(id) ? await webhooks.findById(id) : null;
  if (!webhook || webhook.ownerId !== actor.userId) throw new NotFoundError('Webhook');
  return webhook;
}
