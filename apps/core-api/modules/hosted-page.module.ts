import type { Container } from 'inversify';
import { HmacConversationTokens } from '../../../adapters/crypto/hmac.conversation-tokens';
import { hostedPageRouter } from '../../../adapters/http/hosted-page/hosted-page.router';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { GetHostedApplicationUseCase } from '../../../core/public-api/use-cases/get-hosted-application.use-case';
import { GetHostedConversationUseCase } from '../../../core/public-api/use-cases/get-hosted-conversation.use-case';
import { PresentApplication } from '../../../core/public-api/use-cases/present-application';
import { StreamHostedMessageUseCase } from '../../../core/public-api/use-cases/stream-hosted-message.use-case';
import { provide, type AppModule } from '../../shared/app-module';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { HOSTED_PAGE_TOKENS } from './hosted-page.tokens';

/**
 * The hosted chat page (`GET /chat/:slug`, EXTENSIONS.md) and its keyless same-origin chat API. Needs the
 * public-api (PresentApplication), conversations and chat-engine modules.
 */
export const hostedPageModule: AppModule = {
  name: 'hosted-page',
  bind(c: Container) {
    provide(c, HOSTED_PAGE_TOKENS.ConversationTokens, (get) => new HmacConversationTokens(get(TOKENS.Config).jwtSecret));
    provide(c, GetHostedApplicationUseCase, (get) =>
      new GetHostedApplicationUseCase({ applications: get(TOKENS.ApplicationRepository), presenter: get(PresentApplication) }),
    );
    provide(c, StreamHostedMessageUseCase, (get) =>
      new StreamHostedMessageUseCase({
        applications: get(TOKENS.ApplicationRepository),
        conversations: get(CHAT_TOKENS.ConversationRepository),
        runner: get(ChatTurnRunner),
        tokens: get(HOSTED_PAGE_TOKENS.ConversationTokens),
        limiter: get(TOKENS.RateLimiter),
      }),
    );
    provide(c, GetHostedConversationUseCase, (get) =>
      new GetHostedConversationUseCase({
        applications: get(TOKENS.ApplicationRepository),
        conversations: get(CHAT_TOKENS.ConversationRepository),
        tokens: get(HOSTED_PAGE_TOKENS.ConversationTokens),
      }),
    );
  },
  routers: (c) => [
    hostedPageRouter({
      app: resolve(c, GetHostedApplicationUseCase),
      stream: resolve(c, StreamHostedMessageUseCase),
      conversation: resolve(c, GetHostedConversationUseCase),
    }),
  ],
};
