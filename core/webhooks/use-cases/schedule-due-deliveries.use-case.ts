import { enqueueDelivery, type WebhookDeps } from './webhook-deps';

/**
 * Queues the deliveries whose next attempt is due (the retry schedule runs on the database's times, so
 * a restart or another instance picks it up) and those whose sender died while holding them.
 */
export class ScheduleDueDeliveriesUseCase {
  constructor(private readonly deps: Pick<WebhookDeps, 'webhooks' | 'queue' | 'clock'>) {}

  async execute(limit = 500): Promise<number> {
    const due = await this.deps.webhooks.due(this.deps.clock.now(), limit);
    for (const d of due) await enqueueDelivery(this.deps.queue, d.id, d.attempts + 1);
    return due.length;
  }
}
