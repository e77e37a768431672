import { Counter, Gauge, type Registry } from 'prom-client';

/** The traces' own series on a metrics registry, read when scraped: spans dropped (queue full, store refused) and queued. */
export function registerTraceMetrics(registry: Registry, source: { dropped: () => number; queued: () => number; written: () => number }): void {
  new Counter({
    name: 'trace_spans_dropped_total',
    help: 'Trace spans dropped: the write queue was full or the store refused a batch (a turn never waits for its trace)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.dropped());
    },
  });
  new Counter({
    name: 'trace_spans_written_total',
    help: 'Trace spans written to the database',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(source.written());
    },
  });
  new Gauge({
    name: 'trace_spans_queued',
    help: 'Trace spans waiting in memory to be written',
    registers: [registry],
    collect() {
      this.set(source.queued());
    },
  });
}
