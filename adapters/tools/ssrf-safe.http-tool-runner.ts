import { fillHeaders, fillUrl, hostNotAllowed } from '../../core/tools/domain/tool-input';
import { toolSecretAad, type Tool } from '../../core/tools/domain/tool';
import { ToolFailure, type ToolCallContext, type ToolRunner } from '../../core/tools/ports/tool-runner.port';
import type { SecretBox } from '../../core/shared/secret-box.port';
import { HttpRefused, type WorkflowHttp } from '../../core/workflows/ports/step-services.port';

/**
 * http tools through the workflows' SSRF-safe client: the URL filled from the arguments (path and query
 * only), its host checked against the tool's allowed hosts, every address it resolves to checked before
 * any connection, no redirects followed. Header secrets are opened for the call alone and never appear in
 * what the model reads: the answer is the status and the body, and failures say only what went wrong.
 */
export class SsrfSafeHttpToolRunner implements ToolRunner {
  constructor(private readonly http: WorkflowHttp, private readonly secretBox: SecretBox) {}

  async run(tool: Tool, args: Record<string, unknown>, context: ToolCallContext): Promise<string> {
    if (tool.source.type !== 'http') throw new ToolFailure('not an http tool');
    const source = tool.source;
    const url = new URL(fillUrl(source.url, args));
    const refusedHost = hostNotAllowed(source, url);
    if (refusedHost) throw new ToolFailure(`the tool may not reach ${refusedHost}`);
    const secrets = Object.fromEntries(Object.entries(tool.secretsSealed).map(([name, sealed]) => [name, this.secretBox.open(sealed, toolSecretAad(tool.id, name))]));
    const headers = fillHeaders(source.headers, secrets);
    const hasBody = source.method !== 'GET' && source.method !== 'DELETE';
    if (hasBody) headers['content-type'] = 'application/json';
    if (context.signal.aborted) throw new ToolFailure('the call was cancelled');
    try {
      const answer = await this.http.request({ method: source.method, url: url.toString(), headers, body: hasBody ? JSON.stringify(args) : undefined, timeoutMs: tool.timeoutMs });
      return `HTTP ${answer.status}\n${answer.body}`;
    } catch (error) {
      if (error instanceof HttpRefused) throw new ToolFailure(error.message);
      throw new ToolFailure('the endpoint could not be reached');
    }
  }
}
