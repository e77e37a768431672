import { createAiService } from '../../apps/ai-service/ai-service.container';
import { loadConfig } from '../../apps/shared/config';
import { createInfrastructure } from '../../apps/shared/infrastructure';
import { listen } from '../../apps/shared/serve';
import { platformEnv } from './platform-env';

/**
 * The AI service alone, as `npm run start:ai-service` runs it when deployed apart from the core API:
 * on the PostgreSQL of BENCH_DATABASE_URL, in the schema BENCH_SCHEMA that the platform process shares.
 */
void (async () => {
  // On BENCH_DATABASE_URL, in the platform process's BENCH_DATA_DIR (the same service token).
  const config = loadConfig(platformEnv());
  const infra = await createInfrastructure(config, { schema: process.env.BENCH_SCHEMA });
  const ai = await listen(await createAiService(infra), '127.0.0.1', 0);
  process.send!({ url: ai.url });
  process.on('SIGTERM', () => process.exit(0));
})();
