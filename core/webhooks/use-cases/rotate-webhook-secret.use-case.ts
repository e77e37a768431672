import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { Actor } from '../../shared/actor';
import { secretAssociatedData } from '../domain/webhook';
import { findOwnedWebhook } from './find-owned-webhook';
import type { WebhookDeps } from './webhook-deps';

/** Replaces the signing secret; the new one is in this answer only, and every later delivery uses it. */
export class RotateWebhookSecretUseCase {
  constructor(private readonly deps: Pick<WebhookDeps, 'webhooks' | 'sender' | 'secretBox' | 'clock'> & { applications?: ApplicationRepository }) {}

  async execute(id: string, actor: Actor): Promise<{ id: string; secret: string }> {
    const webhook = await findOwnedWebhook(this.deps.webhooks, id, actor, 'manage', this.deps.applications ?? null);
    const secret = this.deps.sender.newSecret();
    await this.deps.webhooks.replaceSecret(webhook.id, this.deps.secretBox.seal(secret, secretAssociatedData(webhook.id)), this.deps.clock.now());
    return { id: webhook.id, secret };
  }
}
