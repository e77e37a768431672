import { isProviderId, PROVIDER_IDS } from '../../ai/domain/provider-id';
import type { ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { SecretBox } from '../../shared/secret-box.port';
import { ValidationError } from '../../shared/errors';
import type { ConnectionRepository } from '../ports/connection-repository.port';
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
    if (plan.provider === undefined || isProviderId(plan.provider)) return;
    const found = typeof plan.provider === 'string' && plan.provider.length <= 40 ? await this.deps.connections.findByName(turn.ownerId, plan.provider) : null;
    if (!found) throw ValidationError.field('provider', `provider must be one of ${PROVIDER_IDS.join(', ')} or the name of one of your connections`);
    plan.connection = openConnection(this.deps.secretBox, found);
  }
}
