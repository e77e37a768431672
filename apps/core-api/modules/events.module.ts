import type { Container } from 'inversify';
import { isEmbedded } from '../../../adapters/persistence/data-source';
import { SqlEventOutbox, SqlEventPublisher } from '../../../adapters/persistence/events/sql-event-outbox';
import { SqlUnitOfWork } from '../../../adapters/persistence/events/sql-unit-of-work';
import type { EventSubscriber } from '../../../core/events/ports/event-subscriber.port';
import { DISPATCH_EVENTS_JOB, DispatchEventsUseCase } from '../../../core/events/use-cases/dispatch-events.use-case';
import { provide, type AppModule } from '../../shared/app-module';
import { EVENT_TOKENS } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { ownJobQueue } from './job-queues';
import { EVENTS_INTERNAL_TOKENS } from './events.tokens';

export interface EventsModuleOptions {
  /** BullMQ key prefix (tests give each run its own). */
  jobPrefix?: string;
  /** How often the outbox is looked at even when nothing woke the dispatcher (events of a crashed process). */
  sweepIntervalMs?: number;
}

/**
 * Wake-ups of the dispatchers on each database, counted for all the apps of this process that use it. On the
 * embedded database every event is published in this process, so a dispatcher run that nothing woke since its
 * claim has seen them all (DispatchEventsDeps.wakes).
 */
const wakeCounts = new WeakMap<object, { count: number }>();
function wakesOn(dataSource: object): { count: number } {
  let wakes = wakeCounts.get(dataSource);
  if (!wakes) wakeCounts.set(dataSource, (wakes = { count: 0 }));
  return wakes;
}

/**
 * The event backbone (EVENTS.md): the unit of work and publisher every area writes events through,
 * and the dispatcher draining the outbox into the subscribers bound to `EVENT_TOKENS.Subscriber`.
 */
export function eventsModule(options: EventsModuleOptions = {}): AppModule {
  return {
    name: 'events',
    bind(c: Container) {
      provide(c, EVENT_TOKENS.UnitOfWork, (get) => new SqlUnitOfWork(get(TOKENS.DataSource)));
      provide(c, EVENTS_INTERNAL_TOKENS.JobQueue, (get) => ownJobQueue(get, options.jobPrefix ?? 'events'));
      provide(c, EVENTS_INTERNAL_TOKENS.Outbox, (get) => new SqlEventOutbox(get(TOKENS.DataSource)));
      provide(c, EVENT_TOKENS.Wake, (get) => {
        const wakes = wakesOn(get(TOKENS.DataSource));
        const queue = get(EVENTS_INTERNAL_TOKENS.JobQueue);
        const logger = get(TOKENS.Logger);
        // Waking is a hint: a lost wake-up is made up by the sweep.
        return () => {
          wakes.count++;
          void queue.enqueue(DISPATCH_EVENTS_JOB, {}, { id: 'dispatch' }).catch((err: Error) => logger.warn({ err: { message: err.message } }, 'could not wake the event dispatcher'));
        };
      });
      provide(c, EVENT_TOKENS.Publisher, (get) =>
        new SqlEventPublisher({ db: get(TOKENS.DataSource), clock: get(TOKENS.Clock), unitOfWork: get(EVENT_TOKENS.UnitOfWork), wake: get(EVENT_TOKENS.Wake) }));
      provide(c, DispatchEventsUseCase, (get) => {
        const logger = get(TOKENS.Logger);
        let subscribers: EventSubscriber[] | undefined;
        return new DispatchEventsUseCase({
          outbox: get(EVENTS_INTERNAL_TOKENS.Outbox),
          clock: get(TOKENS.Clock),
          // Read once, at the first dispatch: every module has bound its subscribers by then.
          subscribers: () => (subscribers ??= c.isBound(EVENT_TOKENS.Subscriber) ? c.getAll(EVENT_TOKENS.Subscriber) : []),
          ...(isEmbedded(get(TOKENS.DataSource)) ? { wakes: ((wakes) => () => wakes.count)(wakesOn(get(TOKENS.DataSource))) } : {}),
          onSubscriberError: (subscriber, eventId, err) =>
            logger.warn({ subscriber, eventId, err: { message: err instanceof Error ? err.message : String(err) } }, 'an event subscriber failed; the event will be handed over again'),
        });
      });
    },
    async start(c: Container) {
      const queue = resolve(c, EVENTS_INTERNAL_TOKENS.JobQueue);
      const dispatch = resolve(c, DispatchEventsUseCase);
      const logger = resolve(c, TOKENS.Logger);
      queue.register(DISPATCH_EVENTS_JOB, async () => void (await dispatch.execute()), { attempts: 1, backoffMs: 1000, concurrency: 1 });
      await queue.start();
      const sweep = () => void queue.enqueue(DISPATCH_EVENTS_JOB, {}, { id: 'dispatch' }).catch((err: Error) => logger.warn({ err: { message: err.message } }, 'event sweep failed'));
      // Events left by a crash (or written while no one was awake) are taken up now and then.
      sweep();
      const timer = setInterval(sweep, options.sweepIntervalMs ?? 1000);
      timer.unref();
      // Handed-over events are kept a week (for inspection), then deleted (except the de-duplicating ones).
      const outbox = resolve(c, EVENTS_INTERNAL_TOKENS.Outbox);
      const clock = resolve(c, TOKENS.Clock);
      const prune = () => void outbox.prune(new Date(clock.now().getTime() - 7 * 86_400_000)).catch((err: Error) => logger.warn({ err: { message: err.message } }, 'pruning the event outbox failed'));
      const pruner = setInterval(prune, 3_600_000);
      pruner.unref();
      return async () => {
        clearInterval(timer);
        clearInterval(pruner);
        await queue.stop();
        await dispatch.flush().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'could not mark the last dispatched events'));
      };
    },
  };
}
