import type { Container } from 'inversify';
import { CachedConversationRepository } from '../../../adapters/cache/cached-repositories';
import { HttpChatEngine } from '../../../adapters/clients/http-chat-engine';
import { TypeOrmConversationRepository } from '../../../adapters/persistence/conversations/type-orm-conversation.repository';
import { createLlmProviderRegistry } from '../../../adapters/providers/provider-registry';
import { InProcessChatEngine } from '../../../core/ai/use-cases/in-process-chat-engine';
import { provide, type AppModule } from '../app-module';
import type { AppConfig } from '../config';
import { TOKENS } from '../tokens';
import { CHAT_TOKENS } from './chat-engine.tokens';
import { connectionEndpoints } from './connection-endpoints';
import { sharedResilienceRuntime } from '../../../core/ai/use-cases/turn-routes';
import { EVENT_TOKENS } from './event.tokens';

/**
 * The chat engine: in-process on the provider registry (always in `in-process` mode, which `npm start`
 * gives the core API), or — for the core API in `from-config` mode when AI_SERVICE_URL is
 * set — an HTTP client of the AI service. Conversations live in the shared database either way.
 */
export function chatEngineModule(mode: 'in-process' | 'from-config'): AppModule {
  return {
    name: 'chat-engine',
    bind(c: Container) {
      provide(c, CHAT_TOKENS.ConversationRepository, (get) => {
        // A turn's events are written by the engine's statements: the dispatcher of this process (the core
        // API's) is woken after them; an AI service apart has none, and the core API's sweep takes them up.
        const wake = () => (c.isBound(EVENT_TOKENS.Wake) ? get(EVENT_TOKENS.Wake)() : undefined);
        return new CachedConversationRepository(new TypeOrmConversationRepository(get(TOKENS.DataSource), get<AppConfig>(TOKENS.Config).historyCacheChars, wake), get(TOKENS.Cache));
      });
      provide(c, CHAT_TOKENS.LlmProviderRegistry, (get) => {
        const config = get<AppConfig>(TOKENS.Config);
        return createLlmProviderRegistry({ baseUrls: config.providerBaseUrls, platformKeys: config.providerKeys, timeoutMs: config.providerTimeoutMs });
      });
      provide(c, CHAT_TOKENS.ConnectionEndpoints, (get) => connectionEndpoints(get<AppConfig>(TOKENS.Config)));
      provide(c, CHAT_TOKENS.Resilience, () => sharedResilienceRuntime());
      provide(c, CHAT_TOKENS.ChatEngine, (get) => {
        const config = get<AppConfig>(TOKENS.Config);
        if (mode === 'from-config' && config.aiServiceUrl) return new HttpChatEngine(config.aiServiceUrl, config.aiServiceToken);
        return new InProcessChatEngine({
          conversations: get(CHAT_TOKENS.ConversationRepository),
          providers: get(CHAT_TOKENS.LlmProviderRegistry),
          clock: get(TOKENS.Clock),
          ...(c.isBound(CHAT_TOKENS.ToolRuntime) ? { tools: get(CHAT_TOKENS.ToolRuntime) } : {}),
          connections: get(CHAT_TOKENS.ConnectionEndpoints),
          resilience: get(CHAT_TOKENS.Resilience),
        });
      });
    },
  };
}
