import type { Tool } from '../../core/tools/domain/tool';
import { ToolFailure, type ToolCallContext, type ToolRunner } from '../../core/tools/ports/tool-runner.port';

/** Room over the tool's own timeout for the hop to the core API and back. */
const HOP_MARGIN_MS = 2_000;
/** The core API's answer is the tool output (already capped by the core's runners) plus a small envelope. */
const MAX_ANSWER_CHARS = 512 * 1024;

/**
 * Runs a call in the core API (`POST /internal/tools/run`, AI_SERVICE_TOKEN): the AI service, apart from the
 * core API, has no plugin runtime, MCP connections, knowledge or workflows of its own. Only the tool's name
 * travels; the core API finds the tool again in the application's own toolset.
 */
export class CoreApiToolRunner implements ToolRunner {
  constructor(private readonly options: { baseUrl: string; token: string; fetch?: typeof fetch }) {}

  async run(tool: Tool, args: Record<string, unknown>, context: ToolCallContext): Promise<string> {
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(tool.timeoutMs + HOP_MARGIN_MS)]);
    let res: Response;
    try {
      res = await (this.options.fetch ?? fetch)(new URL('/internal/tools/run', this.options.baseUrl), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.options.token}` },
        body: JSON.stringify({ applicationId: context.applicationId, ownerId: context.ownerId, name: tool.name, arguments: args }),
        signal,
        redirect: 'error',
      });
    } catch {
      throw new ToolFailure('the platform could not reach the tool');
    }
    if (res.status === 404) throw new ToolFailure('this tool is no longer available');
    if (!res.ok) {
      await res.body?.cancel();
      throw new ToolFailure('the platform could not run the tool');
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text.length <= MAX_ANSWER_CHARS ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const answer = body as { content?: unknown; isError?: unknown } | undefined;
    if (typeof answer?.content !== 'string' || typeof answer.isError !== 'boolean') throw new ToolFailure('the platform could not run the tool');
    if (answer.isError) throw new ToolFailure(answer.content);
    return answer.content;
  }
}
