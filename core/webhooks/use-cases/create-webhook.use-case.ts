import * as yup from 'yup';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { EventType } from '../../events/domain/domain-event';
import type { Actor } from '../../shared/actor';
import { newId } from '../../shared/ids';
import { str, validate } from '../../shared/validation';
import { secretAssociatedData, toWebhookView, type WebhookView } from '../domain/webhook';
import { checkedUrl, descriptionField, eventsField, urlField } from './webhook-fields';
import type { WebhookDeps } from './webhook-deps';

const schema = yup.object({
  url: urlField().required('url is required'),
  events: eventsField().required('events is required'),
  applicationId: str().nullable(),
  description: descriptionField(),
});

/** Registers a webhook; the signing secret is in this one answer, sealed at rest and never shown again. */
export class CreateWebhookUseCase {
  constructor(private readonly deps: Pick<WebhookDeps, 'webhooks' | 'applications' | 'sender' | 'secretBox' | 'clock'>) {}

  async execute(input: unknown, actor: Actor): Promise<WebhookView & { secret: string }> {
    const body = await validate(schema, input);
    const url = await checkedUrl(this.deps.sender, body.url);
    const applicationId = body.applicationId ? (await findOwnedApplication(this.deps.applications, body.applicationId, actor, 'manage')).id : null;
    const id = newId();
    const secret = this.deps.sender.newSecret();
    const webhook = await this.deps.webhooks.create({
      id,
      ownerId: actor.userId,
      applicationId,
      url,
      events: [...new Set(body.events as EventType[])],
      description: body.description ?? '',
      secretSealed: this.deps.secretBox.seal(secret, secretAssociatedData(id)),
      createdAt: this.deps.clock.now(),
    });
    return { ...toWebhookView(webhook), secret };
  }
}
