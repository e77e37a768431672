import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TurnObservation } from '../../core/analytics/use-cases/analytics.policy';
import type { JobQueueDepth } from '../../core/shared/job-queue.port';
import type { BreakerSnapshot } from '../../core/ai/domain/circuit-breaker';

/** Queue depths read at scrape time (the job queues of this process, and the event outbox's backlog). */
export type QueueDepthSource = () => Promise<Array<Pick<JobQueueDepth, 'name' | 'waiting' | 'active' | 'delayed'>>>;

/** The resilience runtime's state (docs/connections.md), read when scraped. */
export interface ResilienceSource {
  breakers(): BreakerSnapshot[];
  failedAttempts(): Iterable<[string, number]>;
}

/**
 * The core API's Prometheus metrics, on a registry of its own (one per app instance, so two stacks in
 * one process never share counters): HTTP request rate and latency per route, chat turns, provider
 * errors, and job queue depth read when scraped.
 */
export class PlatformMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly turns: Counter<'source' | 'outcome' | 'provider'>;
  private readonly providerErrors: Counter<'provider'>;

  constructor(queueDepth?: QueueDepthSource, resilience?: ResilienceSource) {
    const registers = [this.registry];
    if (resilience) {
      // Read at scrape time from the process's breakers and attempt counts (docs/connections.md).
      new Gauge({
        name: 'provider_circuit_breaker_open',
        help: 'Circuit breakers of provider keys and connections: 1 open, 0.5 half-open, 0 closed with recent failures',
        labelNames: ['breaker'],
        registers,
        collect() {
          this.reset();
          for (const b of resilience.breakers()) this.set({ breaker: b.label }, b.state === 'open' ? 1 : b.state === 'half_open' ? 0.5 : 0);
        },
      });
      new Counter({
        name: 'provider_failed_attempts_total',
        help: 'Provider calls that failed and were retried or fell back (counted apart from the quota), by provider or connection',
        labelNames: ['provider'],
        registers,
        collect() {
          this.reset();
          for (const [provider, n] of resilience.failedAttempts()) this.inc({ provider }, n);
        },
      });
    }
    this.requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route and status', labelNames: ['method', 'route', 'status'], registers });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request (to the end of the body), by method and route',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.turns = new Counter({ name: 'chat_turns_total', help: 'Chat turns that reached a provider, by source, outcome and provider', labelNames: ['source', 'outcome', 'provider'], registers });
    this.providerErrors = new Counter({ name: 'provider_errors_total', help: 'Chat turns failed by the provider (its error or time-out)', labelNames: ['provider'], registers });
    if (queueDepth) {
      new Gauge({
        name: 'job_queue_depth',
        help: 'Jobs waiting, delayed for a retry or running, by queue and state',
        labelNames: ['queue', 'state'],
        registers,
        async collect() {
          this.reset();
          for (const q of await queueDepth()) {
            this.set({ queue: q.name, state: 'waiting' }, q.waiting);
            this.set({ queue: q.name, state: 'delayed' }, q.delayed);
            this.set({ queue: q.name, state: 'active' }, q.active);
          }
        },
      });
    }
  }

  /** One answered request; `route` is the matched route's pattern (never the raw path: ids would explode the series). */
  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, seconds);
  }

  turn(t: TurnObservation): void {
    const outcome = !t.ok ? 'failed' : t.interrupted ? 'interrupted' : 'completed';
    this.turns.inc({ source: t.source, outcome, provider: t.provider || 'unknown' });
    if (t.providerFailed) this.providerErrors.inc({ provider: t.provider || 'unknown' });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
