import type { Container } from 'inversify';
import { connectionsRouter } from '../../../adapters/http/connections/connections.router';
import { TypeOrmConnectionRepository } from '../../../adapters/persistence/connections/type-orm-connection.repository';
import { ConnectionTurnPolicy } from '../../../core/connections/use-cases/connection-turn.policy';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import type { ChatPolicyFactory } from './conversations.tokens';
import { ConnectionsUseCases } from '../../../core/connections/use-cases/connections.use-cases';
import { provide, type AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { CONNECTION_TOKENS } from './connections.tokens';
import { TEAM_TOKENS } from './teams.tokens';

/**
 * Owners' connections (docs/connections.md): custom endpoints under the connections' own address rules
 * (CONNECTIONS_ALLOW_HTTP, CONNECTIONS_ALLOWED_PRIVATE_CIDRS), keys and headers sealed by the SecretBox.
 */
export const connectionsModule: AppModule = {
  name: 'connections',
  bind(c: Container) {
    provide(c, CONNECTION_TOKENS.Repository, (get) => new TypeOrmConnectionRepository(get(TOKENS.DataSource)));
    provide(
      c,
      ConnectionsUseCases,
      (get) => new ConnectionsUseCases({ connections: get(CONNECTION_TOKENS.Repository), teams: c.isBound(TEAM_TOKENS.TeamRepository) ? get(TEAM_TOKENS.TeamRepository) : null, endpoints: get(CHAT_TOKENS.ConnectionEndpoints), secretBox: get(TOKENS.SecretBox), clock: get(TOKENS.Clock) }),
    );
    provide(c, ConnectionTurnPolicy, (get) => new ConnectionTurnPolicy({ connections: get(CONNECTION_TOKENS.Repository), secretBox: get(TOKENS.SecretBox) }));
  },
  routers: (c) => [connectionsRouter({ auth: resolve(c, TOKENS.AuthMiddleware), connections: resolve(c, ConnectionsUseCases) })],
};

/** Runs after the model config (which names the provider) and before keys and quota (a connection is its own key). */
export const connectionChatPolicy: ChatPolicyFactory = (c) => resolve(c, ConnectionTurnPolicy);
