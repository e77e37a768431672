import { isProviderId, PROVIDER_IDS } from '../../ai/domain/provider-id';
import { RESILIENCE_LIMITS } from '../../ai/domain/resilience';
import type { ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { SecretBox } from '../../shared/secret-box.port';
import { ValidationError } from '../../shared/errors';
import type { ConnectionRepository, ConnectionUser } from '../ports/connection-repository.port';
import { openConnection } from './connections.use-cases';

/**
 * A turn whose provider is the name of one of the owner's connections (docs/connections.md): the connection
 * is found and opened for this one turn (its key and headers go to the engine with the request, like an own
 * key, and are never stored or logged). A name that is neither a provider nor a connection is the usual 400.
 */
export class ConnectionTurnPolicy implements ChatPolicy {
  readonly name = 'connections';

  constructor(private readonly deps: { connections: ConnectionRepository; secretBox: SecretBox }) {}

  async prepare(turn: ChatTurn, plan: ChatPlan): Promise<void> {
    await this.openFallbacks(turn, plan);
    if (plan.provider === undefined || isProviderId(plan.provider)) return;
    const found = typeof plan.provider === 'string' && plan.provider.length <= 40 ? await this.deps.connections.findByName(userOf(turn), plan.provider) : null;
    if (!found) throw ValidationError.field('provider', `provider must be one of ${PROVIDER_IDS.join(', ')} or the name of one of your connections`);
    plan.connection = openConnection(this.deps.secretBox, found);
  }

  /**
   * The connections the settings' balance members and fallbacks name (`connectionName/model`), opened for the
   * engine: read only when one names a connection, so a policy of built-in providers costs no read. A name that
   * is no connection of the owner is left to the engine, which records that member or fallback as skipped.
   */
  private async openFallbacks(turn: ChatTurn, plan: ChatPlan): Promise<void> {
    const resilience = plan.settings.resilience as { fallbacks?: unknown; balance?: unknown } | undefined;
    if (!resilience) return;
    const names = new Set<string>();
    for (const [list, limit] of [[resilience.balance, RESILIENCE_LIMITS.balance], [resilience.fallbacks, RESILIENCE_LIMITS.fallbacks]] as const) {
      if (!Array.isArray(list)) continue;
      for (const f of list.slice(0, limit)) {
        const name = (f as { provider?: unknown } | null)?.provider;
        if (typeof name === 'string' && !isProviderId(name) && name.length <= 40) names.add(name);
      }
    }
    if (!names.size) return;
    const opened = [];
    for (const name of names) {
      const found = await this.deps.connections.findByName(userOf(turn), name);
      if (found) opened.push(openConnection(this.deps.secretBox, found));
    }
    if (opened.length) plan.fallbackConnections = opened;
  }
}

/** Whose connections a turn may name: its application's team's first, then the application owner's personal ones. */
const userOf = (turn: ChatTurn): ConnectionUser => ({ ownerId: turn.ownerId, teamId: turn.application.teamId ?? null });
