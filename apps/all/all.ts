import { createAiService } from '../ai-service/ai-service.container';
import { createCoreApi, type CoreApiOptions } from '../core-api/core-api.container';
import { createMarketplace } from '../marketplace/marketplace.container';
import type { AppConfig } from '../shared/config';
import type { Infrastructure } from '../shared/infrastructure';
import { listen, type Listening } from '../shared/serve';

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
  const ai = await listen(await createAiService(infra), config.host, config.aiServicePort);
  const marketplace = await listen(await createMarketplace(infra), config.host, config.marketplacePort);
  config.marketplaceUrl ??= marketplace.url;
  const core = await listen(await createCoreApi(infra, { ...coreOptions, chatEngine: 'in-process' }), config.host, config.port);
  return [core, ai, marketplace];
}
