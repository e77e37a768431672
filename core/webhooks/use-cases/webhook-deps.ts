import type { Clock } from '../../shared/clock.port';
import type { JobQueue } from '../../shared/job-queue.port';
import type { SecretBox } from '../../shared/secret-box.port';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { WebhookNotifier } from '../ports/webhook-notifier.port';
import type { WebhookRepository } from '../ports/webhook-repository.port';
import type { WebhookSender } from '../ports/webhook-sender.port';

/** The job that sends one delivery; its id is the delivery and attempt, so two instances never send it twice. */
export const DELIVER_WEBHOOK_JOB = 'webhooks.deliver';
export interface DeliverWebhookJob {
  deliveryId: string;
}

export interface WebhookDeps {
  webhooks: WebhookRepository;
  applications: ApplicationRepository;
  sender: WebhookSender;
  secretBox: SecretBox;
  queue: JobQueue;
  clock: Clock;
  notifier?: WebhookNotifier;
}

export const enqueueDelivery = (queue: JobQueue, deliveryId: string, attempt: number): Promise<void> =>
  queue.enqueue<DeliverWebhookJob>(DELIVER_WEBHOOK_JOB, { deliveryId }, { id: `${deliveryId}-${attempt}` });
