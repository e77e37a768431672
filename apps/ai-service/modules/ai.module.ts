import type { Container } from 'inversify';
import { aiRouter } from '../../../adapters/http/ai/ai.router';
import { serviceTokenAuth } from '../../../adapters/http/shared/service-token.middleware';
import { provide, type AppModule } from '../../shared/app-module';
import { AjvJsonSchemaChecker } from '../../../adapters/tools/ajv.json-schema-checker';
import { CoreApiToolRunner } from '../../../adapters/tools/core-api.tool-runner';
import type { ToolRunnerRegistry } from '../../../core/tools/ports/tool-runner.port';
import { KeyedToolRunners } from '../../../core/tools/use-cases/tool-runners';
import { httpToolRunner } from '../../shared/modules/http-tool-runner';
import { TOKENS, resolve } from '../../shared/tokens';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TRACE_TOKENS } from '../../shared/modules/traces.tokens';

/** The AI service's HTTP API (SPEC 4.4) over the in-process engine, behind AI_SERVICE_TOKEN. */
export const aiModule: AppModule = {
  name: 'ai',
  bind(c: Container) {
    // Turns that carry tools run their calls here: http tools through the SSRF-safe client. Every other source
    // (plugin, mcp, the built-ins) needs the core API's areas: with CORE_API_URL set they run there
    // (POST /internal/tools/run); without it they answer the model that they cannot run in this deployment.
    provide(c, CHAT_TOKENS.ToolRuntime, (get) => {
      const config = get(TOKENS.Config);
      const http = new KeyedToolRunners().register('http', httpToolRunner(get));
      let core: { baseUrl: string; runner: CoreApiToolRunner } | undefined;
      const runners: ToolRunnerRegistry = {
        runnerFor(source) {
          if (source.type === 'http') return http.runnerFor(source);
          // Read per call: the config names the core API once it is known (it may listen after this service).
          const baseUrl = config.coreApiUrl;
          if (!baseUrl) return undefined;
          if (core?.baseUrl !== baseUrl) core = { baseUrl, runner: new CoreApiToolRunner({ baseUrl, token: config.aiServiceToken }) };
          return core.runner;
        },
      };
      return { schemas: new AjvJsonSchemaChecker(), runners };
    });
  },
  routers: (c: Container) => [
    aiRouter({
      auth: serviceTokenAuth(resolve(c, TOKENS.Config).aiServiceToken),
      engine: resolve(c, CHAT_TOKENS.ChatEngine),
      ...(c.isBound(TRACE_TOKENS.Tracer) ? { tracer: resolve(c, TRACE_TOKENS.Tracer) } : {}),
    }),
  ],
};
