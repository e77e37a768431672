import { Redis } from 'ioredis';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { systemClock, type Clock } from '../../core/shared/clock.port';
import type { Cache } from '../../core/shared/cache.port';
import { MemoryCache } from '../../adapters/cache/memory.cache';
import { RedisInvalidatedCache } from '../../adapters/cache/redis-invalidated.cache';
import { openDatabase, type Database } from '../../adapters/persistence/data-source';
import { createLogger, type Logger } from '../../adapters/logging/logger';
import type { AppConfig } from './config';
import { processCommand } from './process-command';
import { RedisUnreachableError, redisWhere } from './startup-failure';

/** What every app of a process shares: configuration, logger, database, Redis and the clock. */
export interface Infrastructure {
  config: AppConfig;
  logger: Logger;
  database: Database;
  dataSource: DataSource;
  redis?: Redis;
  /** Cached reads shared by the apps of the process; invalidations reach other instances through Redis. */
  cache: Cache;
  clock: Clock;
  close(): Promise<void>;
}

export async function createInfrastructure(
  config: AppConfig,
  options: { database?: Database; logger?: Logger; schema?: string; redisReadyTimeoutMs?: number } = {},
): Promise<Infrastructure> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database =
    options.database ??
    (await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.databaseUrl ? undefined : join(config.dataDir),
      pgliteThread: config.pgliteThread,
      pgliteMemory: config.pgliteMemory,
      schema: options.schema,
      command: processCommand(),
    }));
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false })
    : undefined;
  redis?.on('error', (err) => logger.warn({ err: { message: err.message } }, 'redis error'));
  if (redis) {
    // Without this, a Redis that never answers leaves the process half-started: queues and caches wait on it forever.
    await redisReady(redis, config.redisUrl!, options.redisReadyTimeoutMs ?? 10_000).catch(async (error) => {
      redis.disconnect();
      if (!options.database) await database.close();
      throw error;
    });
  }
  const cache: Cache = redis
    ? new RedisInvalidatedCache(redis, { ttlMs: config.cacheTtlMs, maxEntries: config.cacheMaxEntries, onError: (err) => logger.warn({ err: { message: err.message } }, 'cache invalidation channel error') })
    : new MemoryCache({ ttlMs: config.cacheTtlMs, maxEntries: config.cacheMaxEntries });
  return {
    config,
    logger,
    database,
    dataSource: database.dataSource,
    redis,
    cache,
    clock: systemClock,
    async close() {
      await cache.close?.();
      redis?.disconnect();
      await database.close();
    },
  };
}

/** Resolves once Redis answers; rejects with where it tried and the last error after `timeoutMs`. */
function redisReady(redis: Redis, redisUrl: string, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    let last: Error | undefined;
    const onError = (err: Error) => (last = err);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new RedisUnreachableError(redisWhere(redisUrl), last?.message || `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
    };
    redis.on('ready', onReady);
    redis.on('error', onError);
  });
}
