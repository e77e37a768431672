import type { Container } from 'inversify';
import { apiKeyAuth } from '../../../adapters/http/public-api/api-key.middleware';
import { publicApiRouter } from '../../../adapters/http/public-api/public-api.router';
import { publicCors } from '../../../adapters/http/public-api/public-cors.middleware';
import { widgetAccessRouter, widgetScriptRouter } from '../../../adapters/http/public-api/widget-script.router';
import { CheckWidgetOriginUseCase } from '../../../core/public-api/use-cases/check-widget-origin.use-case';
import { TypeOrmOriginRegistry } from '../../../adapters/persistence/api-keys/type-orm-origin-registry';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { GetPublicApplicationBySlugUseCase } from '../../../core/public-api/use-cases/get-public-application-by-slug.use-case';
import { GetPublicApplicationUseCase } from '../../../core/public-api/use-cases/get-public-application.use-case';
import { GetPublicConversationUseCase } from '../../../core/public-api/use-cases/get-public-conversation.use-case';
import { ListedOrigins } from '../../../core/public-api/use-cases/listed-origins';
import { SendPublicMessageUseCase } from '../../../core/public-api/use-cases/send-public-message.use-case';
import { StreamPublicMessageUseCase } from '../../../core/public-api/use-cases/stream-public-message.use-case';
import { PresentApplication } from '../../../core/public-api/use-cases/present-application';
import { BrandingPresentation } from '../../../core/branding/use-cases/branding-presentation';
import { ApplicationThemes } from '../../../core/themes/use-cases/application-themes';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TOKENS, resolve } from '../../shared/tokens';

/**
 * The public API (SPEC 4.10) for API-key holders and the embeddable widget, its CORS, and the widget
 * script itself. Chats run through the same ChatTurnRunner as the dashboard, on the owner's plan.
 * Needs the api-keys, applications, chat-engine and conversations modules.
 */
export const publicApiModule: AppModule = {
  name: 'public-api',
  bind(c: Container) {
    provide(c, ListedOrigins, (get) => new ListedOrigins({ registry: new TypeOrmOriginRegistry(get(TOKENS.DataSource)), clock: get(TOKENS.Clock) }));
    const chat = (get: Getter) => ({
      applications: get(TOKENS.ApplicationRepository),
      conversations: get(CHAT_TOKENS.ConversationRepository),
      runner: get(ChatTurnRunner),
    });
    provide(c, SendPublicMessageUseCase, (get) => new SendPublicMessageUseCase(chat(get)));
    provide(c, StreamPublicMessageUseCase, (get) => new StreamPublicMessageUseCase(chat(get)));
    provide(c, PresentApplication, (get) =>
      new PresentApplication({
        themes: c.isBound(ApplicationThemes) ? get(ApplicationThemes) : undefined,
        branding: c.isBound(BrandingPresentation) ? get(BrandingPresentation) : undefined,
      }),
    );
    const present = (get: Getter) => ({ applications: get(TOKENS.ApplicationRepository), presenter: get(PresentApplication) });
    provide(c, GetPublicApplicationUseCase, (get) => new GetPublicApplicationUseCase(present(get)));
    provide(c, GetPublicApplicationBySlugUseCase, (get) => new GetPublicApplicationBySlugUseCase(present(get)));
    provide(c, CheckWidgetOriginUseCase, (get) => new CheckWidgetOriginUseCase({ applications: get(TOKENS.ApplicationRepository) }));
    provide(c, GetPublicConversationUseCase, (get) =>
      new GetPublicConversationUseCase({ conversations: get(CHAT_TOKENS.ConversationRepository), applications: get(TOKENS.ApplicationRepository) }),
    );
  },
  middleware: (c) => [publicCors(resolve(c, ListedOrigins))],
  routers: (c) => [
    publicApiRouter({
      apiKey: apiKeyAuth(resolve(c, AuthenticateApiKeyUseCase)),
      send: resolve(c, SendPublicMessageUseCase),
      stream: resolve(c, StreamPublicMessageUseCase),
      app: resolve(c, GetPublicApplicationUseCase),
      appBySlug: resolve(c, GetPublicApplicationBySlugUseCase),
      conversation: resolve(c, GetPublicConversationUseCase),
    }),
    widgetScriptRouter(),
    widgetAccessRouter(resolve(c, CheckWidgetOriginUseCase)),
  ],
};
