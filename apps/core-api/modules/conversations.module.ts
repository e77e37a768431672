import type { Container } from 'inversify';
import { conversationsRouter } from '../../../adapters/http/conversations/conversations.router';
import { providersRouter } from '../../../adapters/http/conversations/providers.router';
import { ListProvidersUseCase } from '../../../core/conversations/use-cases/list-providers.use-case';
import { ArchiveConversationUseCase } from '../../../core/conversations/use-cases/archive-conversation.use-case';
import { CreateConversationUseCase } from '../../../core/conversations/use-cases/create-conversation.use-case';
import { GetConversationUseCase } from '../../../core/conversations/use-cases/get-conversation.use-case';
import { ListConversationsUseCase } from '../../../core/conversations/use-cases/list-conversations.use-case';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { RenameConversationUseCase } from '../../../core/conversations/use-cases/rename-conversation.use-case';
import { SendMessageUseCase } from '../../../core/conversations/use-cases/send-message.use-case';
import { StreamMessageUseCase } from '../../../core/conversations/use-cases/stream-message.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOOL_TOKENS } from './tools.tokens';
import { LOGS_TOKENS } from './logs.tokens';
import type { ChatPolicyFactory } from './conversations.tokens';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { EVENT_TOKENS, eventDeps } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';

/** Conversations of the core API (SPEC 4.3), through the chat engine port. */
export function conversationsModule(policies: ChatPolicyFactory[] = []): AppModule {
  return {
    name: 'conversations',
    bind(c: Container) {
      provide(c, ChatTurnRunner, (get) => new ChatTurnRunner({
        engine: get(CHAT_TOKENS.ChatEngine),
        policies: policies.map((p) => p(c)),
        // The engine writes a turn's events with its messages where the app has the events area.
        announce: c.isBound(EVENT_TOKENS.Publisher),
        // Turns call the application's enabled tools where the app serves them (docs/tools.md).
        ...(c.isBound(TOOL_TOKENS.TurnTools) ? { tools: (applicationId: string, ownerId: string) => get(TOOL_TOKENS.TurnTools).forApplication(applicationId, ownerId) } : {}),
        // Close questions are answered from the application's annotations where the app has the logs area (docs/logs.md).
        ...(c.isBound(LOGS_TOKENS.AnnotationReplier) ? { annotations: get(LOGS_TOKENS.AnnotationReplier) } : {}),
      }));
      const deps = (get: Getter) => ({
        conversations: get(CHAT_TOKENS.ConversationRepository),
        applications: get(TOKENS.ApplicationRepository),
        engine: get(CHAT_TOKENS.ChatEngine),
      });
      provide(c, CreateConversationUseCase, (get) => new CreateConversationUseCase({ ...deps(get), runner: get(ChatTurnRunner), events: eventDeps(c, get).events }));
      provide(c, ListConversationsUseCase, (get) => new ListConversationsUseCase(deps(get)));
      provide(c, GetConversationUseCase, (get) => new GetConversationUseCase({ ...deps(get), prices: get(TOKENS.Config).modelPrices }));
      provide(c, ArchiveConversationUseCase, (get) => new ArchiveConversationUseCase({ ...deps(get), events: eventDeps(c, get).events }));
      provide(c, RenameConversationUseCase, (get) => new RenameConversationUseCase(deps(get)));
      provide(c, SendMessageUseCase, (get) => new SendMessageUseCase({ ...deps(get), runner: get(ChatTurnRunner), prices: get(TOKENS.Config).modelPrices }));
      provide(c, ListProvidersUseCase, (get) => new ListProvidersUseCase({ engine: get(CHAT_TOKENS.ChatEngine) }));
      provide(c, StreamMessageUseCase, (get) => new StreamMessageUseCase({ ...deps(get), runner: get(ChatTurnRunner), prices: get(TOKENS.Config).modelPrices }));
    },
    routers: (c) => [
      conversationsRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        create: resolve(c, CreateConversationUseCase),
        list: resolve(c, ListConversationsUseCase),
        get: resolve(c, GetConversationUseCase),
        archive: resolve(c, ArchiveConversationUseCase),
        rename: resolve(c, RenameConversationUseCase),
        send: resolve(c, SendMessageUseCase),
        stream: resolve(c, StreamMessageUseCase),
      }),
      providersRouter({ auth: resolve(c, TOKENS.AuthMiddleware), list: resolve(c, ListProvidersUseCase) }),
    ],
  };
}
