import type { Container } from 'inversify';
import { aiRouter } from '../../../adapters/http/ai/ai.router';
import { serviceTokenAuth } from '../../../adapters/http/shared/service-token.middleware';
import { provide, type AppModule } from '../../shared/app-module';
import { AjvJsonSchemaChecker } from '../../../adapters/tools/ajv.json-schema-checker';
import { KeyedToolRunners } from '../../../core/tools/use-cases/tool-runners';
import { httpToolRunner } from '../../shared/modules/http-tool-runner';
import { TOKENS, resolve } from '../../shared/tokens';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';

/** The AI service's HTTP API (SPEC 4.4) over the in-process engine, behind AI_SERVICE_TOKEN. */
export const aiModule: AppModule = {
  name: 'ai',
  bind(c: Container) {
    // Turns that carry tools run their calls here: http tools through the SSRF-safe client. Built-ins that
    // need the core API's areas (search_knowledge) answer the model that they cannot run in this deployment.
    provide(c, CHAT_TOKENS.ToolRuntime, (get) => ({
      schemas: new AjvJsonSchemaChecker(),
      runners: new KeyedToolRunners().register('http', httpToolRunner(get)),
    }));
  },
  routers: (c: Container) => [
    aiRouter({ auth: serviceTokenAuth(resolve(c, TOKENS.Config).aiServiceToken), engine: resolve(c, CHAT_TOKENS.ChatEngine) }),
  ],
};
