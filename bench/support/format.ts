import type autocannon from 'autocannon';

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  /** Mean latency in ms (autocannon's percentiles are whole milliseconds). */
  mean: number;
}

export const rowOf = (name: string, r: autocannon.Result): Row => ({ name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean });

/** A plain table on stdout: the figures are the output of a benchmark. */
export function printTable(title: string, rows: Row[], baseline?: Row): void {
  console.log(`\n${title}`);
  console.log('path'.padEnd(44) + 'req/s'.padStart(10) + 'p50 ms'.padStart(10) + 'p99 ms'.padStart(10) + (baseline ? '  vs ' + baseline.name : ''));
  for (const r of rows) {
    const vs = baseline && r !== baseline
      ? `  ${(r.rps / baseline.rps).toFixed(2)}x req/s, +${(r.p50 - baseline.p50).toFixed(2)} ms p50`
      : '';
    console.log(r.name.padEnd(44) + r.rps.toFixed(0).padStart(10) + r.p50.toFixed(2).padStart(10) + r.p99.toFixed(2).padStart(10) + vs);
  }
}
