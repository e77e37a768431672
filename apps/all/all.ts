import type { CoreApiOptions } from '../core-api/core-api.container';
import { createPlatform } from '../platform/platform';
import type { AppConfig } from '../shared/config';
import type { Infrastructure } from '../shared/infrastructure';
import type { Listening } from '../shared/serve';

/**
 * The three services in one process (`npm start`), sharing one database (PGlite allows a single process
 * per data directory). The core API runs the chat engine in-process: its AI service is in the same
 * process, and a hop over HTTP to it would only add latency, so AI_SERVICE_URL is ignored here. The AI
 * service still serves its own port for direct integrations (SPEC 4.4); services run apart
 * (`npm run start:core-api` with AI_SERVICE_URL) keep the HTTP client.
 */
export async function startAll(config: AppConfig, infra: Infrastructure, coreOptions: CoreApiOptions = {}): Promise<Listening[]> {
  if (config.aiServiceUrl) {
    infra.logger.warn('AI_SERVICE_URL is ignored by npm start: the core API runs the chat engine in this process');
  }
  const platform = await createPlatform({
    config,
    infrastructure: infra,
    services: ['ai-service', 'marketplace', 'core-api'],
    chatEngine: 'in-process',
    passwordHashing: coreOptions.passwordHashing,
    accessTokenTtlSeconds: coreOptions.accessTokenTtlSeconds,
    serve: { host: config.host },
    console: true,
  });
  const byName = (name: string) => platform.listening.find((l) => l.app.name === name)!;
  return [byName('core-api'), byName('ai-service'), byName('marketplace')];
}
