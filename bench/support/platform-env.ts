import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The environment the platform's bench processes share: the provider emulator behind the platform keys,
 * BENCH_DATABASE_URL (else the embedded PGlite), REDIS_URL and PGLITE_THREAD when given, and BENCH_DATA_DIR (else a fresh
 * one), so processes started apart share the generated development secrets (the service token).
 */
export function platformEnv(): Record<string, string> {
  const emulatorBase = JSON.parse(process.env.BENCH_PROVIDER_URLS!) as Record<string, string>;
  return {
    DATA_DIR: process.env.BENCH_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-platform-')),
    LOG_LEVEL: 'silent',
    PROVIDER_A_API_KEY: 'sk-bench-platform-0000',
    PROVIDER_A_BASE_URL: emulatorBase.provider_a!,
    // The fallback of the benchmark's resilient model config (never asked while the primary answers).
    PROVIDER_B_API_KEY: 'sk-bench-platform-0000',
    PROVIDER_B_BASE_URL: emulatorBase.provider_b!,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    ...(process.env.PGLITE_THREAD ? { PGLITE_THREAD: process.env.PGLITE_THREAD } : {}),
    ...(process.env.TRACES_ENABLED ? { TRACES_ENABLED: process.env.TRACES_ENABLED } : {}),
  };
}
