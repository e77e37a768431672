import { createAiService } from '../../apps/ai-service/ai-service.container';
import { loadConfig } from '../../apps/shared/config';
import { createInfrastructure } from '../../apps/shared/infrastructure';
import { listen } from '../../apps/shared/serve';

/**
 * The AI service alone, as `npm run start:ai-service` runs it when deployed apart from the core API:
 * on the PostgreSQL of BENCH_DATABASE_URL, in the schema BENCH_SCHEMA that the platform process shares.
 */
void (async () => {
  const emulatorBase = JSON.parse(process.env.BENCH_PROVIDER_URLS!) as Record<string, string>;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.BENCH_DATABASE_URL!,
    // The same DATA_DIR as the platform process: the same generated development secrets (the service token).
    DATA_DIR: process.env.BENCH_DATA_DIR!,
    PROVIDER_A_API_KEY: 'sk-bench-platform-0000',
    PROVIDER_A_BASE_URL: emulatorBase.provider_a!,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  });
  const infra = await createInfrastructure(config, { schema: process.env.BENCH_SCHEMA });
  const ai = await listen(await createAiService(infra), '127.0.0.1', 0);
  process.send!({ url: ai.url });
  process.on('SIGTERM', () => process.exit(0));
})();
