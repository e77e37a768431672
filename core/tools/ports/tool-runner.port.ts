import type { Tool, ToolSource } from '../domain/tool';

/** Who a call runs for: the application and its owner (whose data and limits apply). */
export interface ToolCallContext {
  applicationId: string;
  ownerId: string;
  /** Aborted at the call's timeout, the turn's time budget, or when the client goes away. */
  signal: AbortSignal;
}

/** A tool failure the model may read (the message is shown to it): never holds a secret or an internal detail. */
export class ToolFailure extends Error {}

/** Runs the calls of one source type (http, built-in, …); answers the tool's output as text. */
export interface ToolRunner {
  run(tool: Tool, args: Record<string, unknown>, context: ToolCallContext): Promise<string>;
}

/** Runners by source type (STYLE.md 4): a new source is one runner and one registration. */
export interface ToolRunnerRegistry {
  runnerFor(source: ToolSource): ToolRunner | undefined;
}
