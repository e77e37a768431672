import type { HttpStep } from '../domain/definition';

/** The simple expression language of `condition` steps (a kept library, never `eval`). */
export interface ConditionEvaluator {
  /** Why the expression may not be used (syntax, reaching outside its data), or null. */
  problemWith(expression: string): string | null;
  evaluate(expression: string, data: { input: unknown; steps: Record<string, { output: unknown }> }): Promise<unknown>;
}

export interface HttpCall {
  method: HttpStep['method'];
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Thrown when an address or URL may never be called: not retried. */
export class HttpRefused extends Error {}

/** Outbound HTTP of `http` steps through the SSRF-safe client: public addresses only, no redirects, bounded. */
export interface WorkflowHttp {
  request(call: HttpCall): Promise<HttpAnswer>;
}

/** Cron ticks of scheduled workflows, once per tick across instances. */
export interface WorkflowScheduler {
  /** A ValidationError naming the field when the cron expression or time zone is not valid. */
  validate(cron: string, timezone: string | undefined): void;
  schedule(workflowId: string, cron: string, timezone: string | undefined): Promise<void>;
  unschedule(workflowId: string): Promise<void>;
}
