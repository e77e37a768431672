import type { BreakerSnapshot } from '../../core/ai/domain/circuit-breaker';
import { statfs } from 'node:fs/promises';
import type { Redis } from 'ioredis';
import type { DataSource } from 'typeorm';
import type { ProviderReachability } from '../../core/health/domain/provider-reachability';
import type { ComponentProbe, SystemComponent } from '../../core/health/ports/system-component.port';
import type { Clock } from '../../core/shared/clock.port';
import type { JobQueue, JobQueueDepth } from '../../core/shared/job-queue.port';

/** A queue backlog past this many jobs makes the queues degraded: work is arriving faster than it is done. */
export const QUEUE_BACKLOG_LIMIT = 1000;
/** Free space of DATA_DIR under these shares makes the disk degraded, then down. */
export const DISK_DEGRADED_SHARE = 0.1;
export const DISK_DOWN_SHARE = 0.02;

export function databaseComponent(db: DataSource): SystemComponent {
  return {
    name: 'database',
    critical: true,
    async probe() {
      await db.query('SELECT 1');
      return { status: 'up', details: { kind: db.options.type === 'postgres' ? 'postgresql' : 'pglite' } };
    },
  };
}

export function redisComponent(redis: Redis | undefined): SystemComponent {
  return {
    name: 'redis',
    critical: false,
    async probe() {
      if (!redis) return { status: 'not_configured' };
      await redis.ping();
      return { status: 'up' };
    },
  };
}

/**
 * Another service of the platform, through its `/api/health`: its own status (degraded stays degraded,
 * down or no answer is down). Without a URL: `inProcess` says it runs in this process (up), else not configured.
 */
export function serviceComponent(name: string, url: string | undefined, inProcess = false): SystemComponent {
  return {
    name,
    critical: false,
    async probe(): Promise<ComponentProbe> {
      if (!url) return inProcess ? { status: 'up', details: { mode: 'in-process' } } : { status: 'not_configured' };
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2500) });
      const body = (await res.json().catch(() => null)) as { status?: unknown } | null;
      const reported = body && typeof body.status === 'string' ? body.status : undefined;
      if (!res.ok || reported === 'down') return { status: 'down', error: `status ${res.status}`, details: { mode: 'remote' } };
      return { status: reported === 'degraded' ? 'degraded' : 'up', details: { mode: 'remote' } };
    },
  };
}

/**
 * The job queues (waiting, delayed for a retry, running, failed since this process started) and the
 * event outbox's backlog (events not yet handed to their subscribers). Degraded past QUEUE_BACKLOG_LIMIT.
 */
export function jobQueuesComponent(queues: () => JobQueue[], outboxBacklog: () => Promise<number>): SystemComponent {
  return {
    name: 'jobQueues',
    critical: false,
    async probe() {
      const [depths, outbox] = await Promise.all([queueDepths(queues()), outboxBacklog()]);
      const backlog = depths.reduce((n, q) => n + q.waiting + q.delayed, 0);
      const failed = depths.reduce((n, q) => n + q.failed, 0);
      const over = backlog >= QUEUE_BACKLOG_LIMIT || outbox >= QUEUE_BACKLOG_LIMIT;
      return { status: over ? 'degraded' : 'up', details: { backlog, failed, eventOutboxBacklog: outbox, queues: depths } };
    },
  };
}

export async function queueDepths(queues: JobQueue[]): Promise<JobQueueDepth[]> {
  const all = await Promise.all(queues.map((q) => q.depth?.() ?? Promise.resolve([])));
  return all.flat().sort((a, b) => a.name.localeCompare(b.name));
}

export function providersComponent(reachability: ProviderReachability, clock: Clock): SystemComponent {
  return { name: 'providers', critical: false, probe: async () => reachability.report(clock.now()) };
}

/** Free space of the file system holding DATA_DIR (PGlite's files, uploads, exports). */
export function diskComponent(dataDir: string): SystemComponent {
  return {
    name: 'disk',
    critical: false,
    async probe(): Promise<ComponentProbe> {
      let stats;
      try {
        stats = await statfs(dataDir);
      } catch {
        return { status: 'unknown', error: 'the data folder cannot be read' };
      }
      const total = stats.blocks * stats.bsize;
      const free = stats.bavail * stats.bsize;
      const share = total > 0 ? free / total : 0;
      const status = share < DISK_DOWN_SHARE ? 'down' : share < DISK_DEGRADED_SHARE ? 'degraded' : 'up';
      return { status, details: { freeBytes: free, totalBytes: total, freePercent: Math.round(share * 1000) / 10 } };
    },
  };
}

/**
 * The circuit breakers of provider keys and connections in this process (docs/connections.md): degraded while
 * one is open (turns go straight to their fallbacks), with each breaker's state for the admin's health page.
 */
export function circuitBreakersComponent(breakers: () => BreakerSnapshot[]): SystemComponent {
  return {
    name: 'circuitBreakers',
    critical: false,
    probe: async () => {
      const list = breakers();
      const open = list.filter((b) => b.state !== 'closed');
      const words = { open: 'paused after repeated failures', half_open: 'trying again', closed: 'recent failures' } as const;
      return {
        status: open.length ? 'degraded' : 'up',
        details: list.length ? { breakers: list.map((b) => `${b.label}: ${words[b.state]} (${b.consecutiveFailures} in a row)`).join('; ') } : {},
      };
    },
  };
}
