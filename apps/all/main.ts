import { createAiService } from '../ai-service/ai-service.container';
import { createCoreApi } from '../core-api/core-api.container';
import { createMarketplace } from '../marketplace/marketplace.container';
import { listen, runProcess } from '../shared/serve';

/**
 * `npm start`: the three services in one process on the embedded defaults. They share one database
 * (PGlite allows a single process per data directory) and reach each other over HTTP as they would
 * when deployed apart: the core API calls its own AI service at AI_SERVICE_URL.
 */
void runProcess(async (config, infra) => {
  const ai = await listen(await createAiService(infra), config.host, config.aiServicePort);
  const marketplace = await listen(await createMarketplace(infra), config.host, config.marketplacePort);
  config.aiServiceUrl ??= ai.url;
  if (process.env.MARKETPLACE_URL === undefined) config.marketplaceUrl = marketplace.url;
  const core = await listen(await createCoreApi(infra), config.host, config.port);
  return [core, ai, marketplace];
});
