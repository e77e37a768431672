import type { HookName } from '../domain/definition';
import type { PluginRuntime } from './plugin-runtime';

/** A platform event (EVENTS.md envelope). */
export interface PlatformEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { applicationId?: string };
}

/** Platform events that also run a hook (EXTENSIONS.md hook table). */
const HOOK_OF_EVENT: Record<string, { hook: HookName; arg: (e: PlatformEvent) => unknown }> = {
  'conversation.started': {
    hook: 'conversation:start',
    arg: (e) => ({ conversation: { id: e.data.conversationId, applicationId: e.data.applicationId, source: e.data.source ?? null }, application: { id: e.data.applicationId } }),
  },
  'conversation.archived': { hook: 'conversation:end', arg: (e) => ({ conversation: { id: e.data.conversationId, applicationId: e.data.applicationId } }) },
};

/**
 * The entry point of the domain-events backbone into plugins: delivers an event to the webhook handlers
 * of the active installations of its application whose manifest lists it in `permissions.events`, and
 * runs the hook it maps to. Never throws to the publisher; each handler fails alone.
 */
export class DispatchPlatformEventUseCase {
  constructor(private readonly deps: { runtime: PluginRuntime }) {}

  async execute(event: PlatformEvent): Promise<number> {
    const applicationId = event.data?.applicationId;
    if (typeof applicationId !== 'string') return 0;
    const { runtime } = this.deps;
    const mapped = HOOK_OF_EVENT[event.type];
    if (mapped) runtime.runAction(applicationId, mapped.hook, mapped.arg(event));
    let delivered = 0;
    for (const installation of await runtime.active(applicationId)) {
      const loaded = await runtime.load(installation).catch(() => null);
      if (!loaded || !loaded.plugin.manifest.permissions.events.includes(event.type)) continue;
      for (const handler of loaded.definition.webhooks.filter((w) => w.events.includes(event.type))) {
        try {
          await runtime.call(installation, { kind: 'webhook', name: handler.name }, { event: event.type, payload: event }, runtime.limits.call);
          delivered++;
        } catch {
          // recorded by the runtime
        }
      }
    }
    return delivered;
  }
}
