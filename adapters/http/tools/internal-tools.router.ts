import Router from '@koa/router';
import type { Middleware } from 'koa';
import * as yup from 'yup';
import type { ApplicationRepository } from '../../../core/applications/ports/application-repository.port';
import { NotFoundError, ValidationError } from '../../../core/shared/errors';
import { str, uuidField, validate } from '../../../core/shared/validation';
import { ToolFailure, type ToolRunnerRegistry } from '../../../core/tools/ports/tool-runner.port';
import type { ApplicationToolset } from '../../../core/tools/use-cases/application-toolset';
import { abortOnDisconnect } from '../shared/sse';

const runSchema = yup.object({
  applicationId: uuidField('applicationId').required('applicationId is required'),
  ownerId: uuidField('ownerId').required('ownerId is required'),
  name: str().required('name is required').max(64),
  arguments: yup
    .mixed<Record<string, unknown>>()
    .required('arguments is required')
    .test('arguments', 'arguments must be an object', (v) => typeof v === 'object' && v !== null && !Array.isArray(v)),
});

/** What one call answers: the tool's output, or the failure the model may read. */
export interface ToolRunResult {
  content: string;
  isError: boolean;
}

/**
 * `POST /internal/tools/run` (docs/tools.md "Where the calls run"): the AI service, apart from the core API, runs
 * here the calls it cannot run itself (plugin, MCP, the built-ins). Guarded by AI_SERVICE_TOKEN; the tool is
 * found again by name in the application's own toolset, never taken from the caller.
 */
export function internalToolsRouter(d: { auth: Middleware; applications: ApplicationRepository; toolset: ApplicationToolset; runners: ToolRunnerRegistry }): Router {
  const r = new Router({ prefix: '/internal/tools' });
  r.use(d.auth);
  r.post('/run', async (ctx) => {
    const input = await validate(runSchema, ctx.request.body);
    const application = await d.applications.findById(input.applicationId);
    if (!application || application.ownerId !== input.ownerId) throw new NotFoundError('Application');
    const tool = (await d.toolset.forTurn(application.id)).find((t) => t.name === input.name);
    if (!tool) throw new NotFoundError('Tool');
    const runner = d.runners.runnerFor(tool.source);
    if (!runner) throw new ValidationError('This tool cannot run here');
    // Cut at the tool's timeout (as the turn loop does) or when the AI service gives up and goes away.
    const controller = abortOnDisconnect(ctx);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new ToolFailure(`the tool did not answer within ${tool.timeoutMs} ms`));
        controller.abort();
      }, tool.timeoutMs);
    });
    let result: ToolRunResult;
    try {
      const output = await Promise.race([runner.run(tool, input.arguments as Record<string, unknown>, { applicationId: application.id, ownerId: application.ownerId, signal: controller.signal }), timeout]);
      result = { content: output, isError: false };
    } catch (error) {
      // Only a ToolFailure's message is the model's to read; anything else may hold internals.
      result = { content: error instanceof ToolFailure ? error.message : 'the tool failed', isError: true };
    } finally {
      clearTimeout(timer);
    }
    ctx.body = result;
  });
  return r;
}
