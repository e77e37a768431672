import type { Container } from 'inversify';
import { aiRouter } from '../../../adapters/http/ai/ai.router';
import { serviceTokenAuth } from '../../../adapters/http/shared/service-token.middleware';
import type { AppModule } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';

/** The AI service's HTTP API (SPEC 4.4) over the in-process engine, behind AI_SERVICE_TOKEN. */
export const aiModule: AppModule = {
  name: 'ai',
  bind() {},
  routers: (c: Container) => [
    aiRouter({ auth: serviceTokenAuth(resolve(c, TOKENS.Config).aiServiceToken), engine: resolve(c, CHAT_TOKENS.ChatEngine) }),
  ],
};
