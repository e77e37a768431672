import type { JobQueue } from '../../../core/shared/job-queue.port';
import type { WebhookRepository } from '../../../core/webhooks/ports/webhook-repository.port';
import type { WebhookSender } from '../../../core/webhooks/ports/webhook-sender.port';
import { token } from '../../shared/tokens';

export const WEBHOOK_TOKENS = {
  Repository: token<WebhookRepository>('WebhookRepository'),
  Sender: token<WebhookSender>('WebhookSender'),
  JobQueue: token<JobQueue>('WebhooksJobQueue'),
} as const;
