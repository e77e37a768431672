import type { Container } from 'inversify';
import { webhooksRouter } from '../../../adapters/http/webhooks/webhooks.router';
import { CachedWebhookRepository } from '../../../adapters/cache/cached-event-subscriptions';
import { SsrfSafeWebhookSender, type LookupFunction } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { CreateWebhookUseCase } from '../../../core/webhooks/use-cases/create-webhook.use-case';
import { DeleteWebhookUseCase } from '../../../core/webhooks/use-cases/delete-webhook.use-case';
import { DeliverWebhookUseCase } from '../../../core/webhooks/use-cases/deliver-webhook.use-case';
import { GetWebhookUseCase } from '../../../core/webhooks/use-cases/get-webhook.use-case';
import { ListDeliveriesUseCase } from '../../../core/webhooks/use-cases/list-deliveries.use-case';
import { ListWebhooksUseCase } from '../../../core/webhooks/use-cases/list-webhooks.use-case';
import { RetryDeliveryUseCase } from '../../../core/webhooks/use-cases/retry-delivery.use-case';
import { RotateWebhookSecretUseCase } from '../../../core/webhooks/use-cases/rotate-webhook-secret.use-case';
import { ScheduleDueDeliveriesUseCase } from '../../../core/webhooks/use-cases/schedule-due-deliveries.use-case';
import { SendTestPingUseCase } from '../../../core/webhooks/use-cases/send-test-ping.use-case';
import { UpdateWebhookUseCase } from '../../../core/webhooks/use-cases/update-webhook.use-case';
import { DELIVER_WEBHOOK_JOB, type DeliverWebhookJob, type WebhookDeps } from '../../../core/webhooks/use-cases/webhook-deps';
import { WebhookFanOut } from '../../../core/webhooks/use-cases/webhook-fan-out.subscriber';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { EVENT_TOKENS } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { ownJobQueue } from './job-queues';
import { NOTIFICATION_TOKENS } from './notifications.tokens';
import { WEBHOOK_TOKENS } from './webhooks.tokens';

export interface WebhooksModuleOptions {
  /** BullMQ key prefix (tests give each run its own). */
  jobPrefix?: string;
  /** Per-delivery limit (SPEC 8: 10 s). */
  timeoutMs?: number;
  /** How often due retries are queued. */
  sweepIntervalMs?: number;
  /** How webhook hosts are resolved (tests: a local DNS server). */
  lookup?: LookupFunction;
  /** Deliveries sent at the same time, per process. */
  concurrency?: number;
}

/** Webhooks (SPEC 4.12, 6.2; EVENTS.md): endpoints, fan-out of domain events, signed deliveries with retries. */
export function webhooksModule(options: WebhooksModuleOptions = {}): AppModule {
  return {
    name: 'webhooks',
    bind(c: Container) {
      provide(c, WEBHOOK_TOKENS.Repository, (get) => new CachedWebhookRepository(get(TOKENS.DataSource), get(TOKENS.Cache)));
      provide(c, WEBHOOK_TOKENS.Sender, (get) => {
        const config = get(TOKENS.Config);
        return new SsrfSafeWebhookSender({
          allowHttp: config.webhooksAllowHttp,
          allowedPrivateCidrs: config.webhooksAllowedPrivateCidrs,
          timeoutMs: options.timeoutMs ?? 10_000,
          lookup: options.lookup,
        });
      });
      provide(c, WEBHOOK_TOKENS.JobQueue, (get) => ownJobQueue(get, options.jobPrefix ?? 'webhooks'));
      const deps = (get: Getter): WebhookDeps => ({
        webhooks: get(WEBHOOK_TOKENS.Repository),
        applications: get(TOKENS.ApplicationRepository),
        sender: get(WEBHOOK_TOKENS.Sender),
        secretBox: get(TOKENS.SecretBox),
        queue: get(WEBHOOK_TOKENS.JobQueue),
        clock: get(TOKENS.Clock),
        notifier: c.isBound(NOTIFICATION_TOKENS.Notify) ? get(NOTIFICATION_TOKENS.Notify) : undefined,
      });
      provide(c, CreateWebhookUseCase, (get) => new CreateWebhookUseCase(deps(get)));
      provide(c, ListWebhooksUseCase, (get) => new ListWebhooksUseCase(deps(get)));
      provide(c, GetWebhookUseCase, (get) => new GetWebhookUseCase(deps(get)));
      provide(c, UpdateWebhookUseCase, (get) => new UpdateWebhookUseCase(deps(get)));
      provide(c, DeleteWebhookUseCase, (get) => new DeleteWebhookUseCase(deps(get)));
      provide(c, RotateWebhookSecretUseCase, (get) => new RotateWebhookSecretUseCase(deps(get)));
      provide(c, SendTestPingUseCase, (get) => new SendTestPingUseCase(deps(get)));
      provide(c, ListDeliveriesUseCase, (get) => new ListDeliveriesUseCase(deps(get)));
      provide(c, RetryDeliveryUseCase, (get) => new RetryDeliveryUseCase(deps(get)));
      provide(c, DeliverWebhookUseCase, (get) => new DeliverWebhookUseCase(deps(get), get(TOKENS.Config).webhookDeliveryLeaseMs));
      provide(c, ScheduleDueDeliveriesUseCase, (get) => new ScheduleDueDeliveriesUseCase(deps(get)));
      provide(c, WebhookFanOut, (get) => new WebhookFanOut(deps(get)));
      c.bind(EVENT_TOKENS.Subscriber).toDynamicValue(() => resolve(c, WebhookFanOut)).inSingletonScope();
    },
    routers: (c) => [
      webhooksRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        create: resolve(c, CreateWebhookUseCase),
        list: resolve(c, ListWebhooksUseCase),
        get: resolve(c, GetWebhookUseCase),
        update: resolve(c, UpdateWebhookUseCase),
        remove: resolve(c, DeleteWebhookUseCase),
        rotate: resolve(c, RotateWebhookSecretUseCase),
        test: resolve(c, SendTestPingUseCase),
        deliveries: resolve(c, ListDeliveriesUseCase),
        retry: resolve(c, RetryDeliveryUseCase),
      }),
    ],
    async start(c: Container) {
      const queue = resolve(c, WEBHOOK_TOKENS.JobQueue);
      const deliver = resolve(c, DeliverWebhookUseCase);
      const schedule = resolve(c, ScheduleDueDeliveriesUseCase);
      const logger = resolve(c, TOKENS.Logger);
      // One run per job: the retry schedule is the delivery's own (next_attempt_at), not the queue's backoff.
      queue.register<DeliverWebhookJob>(DELIVER_WEBHOOK_JOB, (job) => deliver.execute(job.deliveryId), { attempts: 1, backoffMs: 1000, concurrency: options.concurrency ?? 8 });
      await queue.start();
      const sweep = () => void schedule.execute().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'webhook retry sweep failed'));
      sweep();
      const timer = setInterval(sweep, options.sweepIntervalMs ?? 1000);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await queue.stop();
      };
    },
  };
}
