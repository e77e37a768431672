import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import * as yup from 'yup';
import type { EventType } from '../../events/domain/domain-event';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { bool, validate } from '../../shared/validation';
import { toWebhookView, type WebhookView } from '../domain/webhook';
import { findOwnedWebhook } from './find-owned-webhook';
import { checkedUrl, descriptionField, eventsField, urlField } from './webhook-fields';
import type { WebhookDeps } from './webhook-deps';

const schema = yup.object({
  url: urlField(),
  events: eventsField(),
  enabled: bool(),
  description: descriptionField(),
});

/** Changes a webhook's URL, events, description or enabled flag; enabling again clears the failure run. */
export class UpdateWebhookUseCase {
  constructor(private readonly deps: Pick<WebhookDeps, 'webhooks' | 'sender' | 'clock'> & { applications?: ApplicationRepository }) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<WebhookView> {
    const body = await validate(schema, input);
    const webhook = await findOwnedWebhook(this.deps.webhooks, id, actor, 'manage', this.deps.applications ?? null);
    if (body.url === undefined && body.events === undefined && body.enabled === undefined && body.description === undefined) {
      throw new ValidationError('Nothing to change: give url, events, enabled or description');
    }
    const change = {
      ...(body.url !== undefined ? { url: await checkedUrl(this.deps.sender, body.url) } : {}),
      ...(body.events !== undefined ? { events: [...new Set(body.events as EventType[])] } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
    };
    const updated = await this.deps.webhooks.update(webhook.id, change, this.deps.clock.now());
    if (!updated) throw new NotFoundError('Webhook');
    return toWebhookView(updated);
  }
}
