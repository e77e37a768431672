import type { DomainEvent } from '../../events/domain/domain-event';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { EventSubscriber } from '../../events/ports/event-subscriber.port';
import type { UnitOfWork } from '../../shared/unit-of-work.port';
import type { DispatchPlatformEventUseCase } from './dispatch-platform-event.use-case';
import type { PluginLifecycleListener } from './plugin-runtime';

/**
 * Plugins hear the platform's domain events: each committed event goes to the webhook handlers of the
 * active installations of its application (and runs the hook it maps to). Dispatching never throws, so
 * an event is not retried on a plugin's account.
 */
export class PluginEventSubscriber implements EventSubscriber {
  readonly name = 'plugins';
  constructor(private readonly dispatch: DispatchPlatformEventUseCase) {}

  async handle(event: DomainEvent): Promise<void> {
    if (!event.applicationId) return;
    await this.dispatch.execute({ id: event.id, type: event.type, timestamp: event.timestamp, data: { ...event.data, applicationId: event.applicationId } });
  }
}

/**
 * Publishes `plugin.activated` / `plugin.deactivated` when an installation changes state (the state is
 * already committed; the event follows in its own unit of work). An automatic deactivation carries its
 * reason, which also notifies the owner.
 */
export class PluginLifecyclePublisher implements PluginLifecycleListener {
  constructor(private readonly deps: { events: EventPublisher; unitOfWork: UnitOfWork; onError(err: unknown): void }) {}

  stateChanged(change: Parameters<PluginLifecycleListener['stateChanged']>[0]): void {
    const type = change.state === 'activated' ? 'plugin.activated' : change.state === 'deactivated' ? 'plugin.deactivated' : null;
    if (!type) return;
    const { applicationId, installationId, pluginId, version, reason } = change;
    const data = { applicationId, installationId, pluginId, version, ...(reason ? { reason } : {}) };
    void this.deps.unitOfWork
      .run(() => this.deps.events.publish({ type, ownerId: change.ownerId, applicationId, data }))
      .catch((err) => this.deps.onError(err));
  }
}
