import { randomUUID } from 'node:crypto';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { titleFrom, type Conversation } from '../../conversations/domain/conversation';
import type { ChatTurnRunner } from '../../conversations/use-cases/run-chat-turn';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import type { SearchKnowledgeUseCase } from '../../knowledge/use-cases/search-knowledge.use-case';
import type { CallPluginEndpointUseCase } from '../../plugins/use-cases/call-plugin-endpoint.use-case';
import { AppError, NotFoundError } from '../../shared/errors';
import type { Step } from '../domain/definition';
import { ReferenceError, renderText, renderValue, type RunScope } from '../domain/references';
import type { WorkflowRun } from '../domain/workflow';
import { HttpRefused, type ConditionEvaluator, type WorkflowHttp } from '../ports/step-services.port';

/** A step failure that retrying cannot mend (a refused address, a missing reference, a refused request). */
export class PermanentStepError extends Error {}

/** What a step produced: its output, the input it was run with (as recorded), its tokens and, for a condition, the branch. */
export interface StepResult {
  input: unknown;
  output: unknown;
  tokens: number;
  next?: string | null;
}

export interface StepServices {
  applications: ApplicationRepository;
  /** The chat path (policies: model config, keys and quota, plugins, knowledge): `llm` steps count like chat turns. */
  chat?: ChatTurnRunner;
  knowledge?: SearchKnowledgeUseCase;
  plugins?: CallPluginEndpointUseCase;
  events: EventPublisher;
  http: WorkflowHttp;
  conditions: ConditionEvaluator;
  /** The workflow's secrets, opened (for `{{secrets.NAME}}` in http headers). */
  secrets?: (workflowId: string) => Promise<Record<string, string>>;
}

/** Request headers whose values are not recorded with the step. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token)$/i;
const MAX_HTTP_TIMEOUT_MS = 30_000;
/** A header template that reads a secret: its value is never recorded. */
const READS_SECRET = /\{\{\s*secrets\./;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** How many workflow events led to this run (0 unless a workflow.event started it). */
function chainDepth(run: WorkflowRun): number {
  if (run.trigger !== 'event' || !isObject(run.input) || !isObject(run.input.event) || run.input.event.type !== 'workflow.event') return 0;
  const data = run.input.event.data;
  return isObject(data) && typeof data.depth === 'number' ? data.depth : 0;
}

/** Runs one step of one run with its references rendered; throws on failure. */
export class StepRunner {
  constructor(private readonly services: StepServices) {}

  async run(step: Step, run: WorkflowRun, scope: RunScope, ctx: { workflowName: string; visit: number; signal: AbortSignal }): Promise<StepResult> {
    try {
      return await this.dispatch(step, run, scope, ctx);
    } catch (error) {
      if (error instanceof ReferenceError || error instanceof HttpRefused) throw new PermanentStepError(error.message);
      if (error instanceof AppError && ['validation', 'unauthorized', 'payment_required', 'forbidden', 'not_found', 'payload_too_large'].includes(error.kind)) {
        throw new PermanentStepError(error.message);
      }
      throw error;
    }
  }

  private async dispatch(step: Step, run: WorkflowRun, scope: RunScope, ctx: { workflowName: string; visit: number; signal: AbortSignal }): Promise<StepResult> {
    const s = this.services;
    switch (step.kind) {
      case 'template': {
        const text = renderText(step.text, scope);
        return { input: {}, output: { text }, tokens: 0 };
      }
      case 'condition': {
        const data = { input: scope.input, steps: Object.fromEntries(Object.entries(scope.outputs).map(([id, output]) => [id, { output }])) };
        let value: unknown;
        try {
          value = await s.conditions.evaluate(step.expression, data);
        } catch (error) {
          throw new PermanentStepError(`the expression failed: ${(error as Error).message}`);
        }
        const passed = Boolean(value) && !(Array.isArray(value) && value.length === 0);
        return { input: { expression: step.expression }, output: { value: value === undefined ? null : value, passed }, tokens: 0, next: passed ? step.then : step.else };
      }
      case 'wait':
        return { input: { ms: step.ms }, output: { waitedMs: step.ms }, tokens: 0 };
      case 'webhook': {
        const data = renderValue(step.data, scope) as Record<string, unknown>;
        await s.events.publish({
          type: 'workflow.event',
          ownerId: run.ownerId,
          applicationId: run.applicationId,
          data: { applicationId: run.applicationId, workflowId: run.workflowId, runId: run.id, stepId: step.id, data, depth: chainDepth(run) + 1 },
          // A step run again after a restart does not announce twice.
          dedupeKey: `workflow:${run.id}:${step.id}:${ctx.visit}`,
        });
        return { input: { data }, output: { type: 'workflow.event', data }, tokens: 0 };
      }
      case 'knowledge': {
        if (!s.knowledge) throw new PermanentStepError('knowledge search is not available in this deployment');
        const query = renderText(step.query, scope);
        const results = await s.knowledge.execute({ applicationId: run.applicationId, query, limit: step.limit ?? 5 }, { userId: run.ownerId, role: 'user' });
        return { input: { query }, output: { results, context: results.map((r) => r.text).join('\n\n') }, tokens: 0 };
      }
      case 'llm': {
        if (!s.chat) throw new PermanentStepError('language models are not available in this deployment');
        const prompt = renderText(step.prompt, scope);
        const application = await s.applications.findById(run.applicationId);
        if (!application) throw new NotFoundError('Application');
        const { configVersionId } = await s.chat.assignOnCreate(application);
        const now = new Date();
        const title = `${ctx.workflowName} · ${step.id}`.slice(0, 80);
        const conversation: Conversation = { id: randomUUID(), applicationId: application.id, title: titleFrom(title), status: 'active', source: 'api', apiKeyId: null, configVersionId, createdAt: now, updatedAt: now };
        const request = { content: prompt, ...(step.provider ? { provider: step.provider } : {}), ...(step.model ? { model: step.model } : {}), ...(step.settings ? { settings: step.settings } : {}) };
        const answer = await s.chat.send(
          { ownerId: run.ownerId, application, conversation, content: prompt, source: 'api' },
          request,
          ctx.signal,
          { applicationId: application.id, title: conversation.title, source: 'api', apiKeyId: null, configVersionId },
        );
        return {
          input: { prompt, provider: step.provider ?? null, model: step.model ?? null },
          output: { text: answer.message.content, provider: answer.provider, model: answer.model, usage: answer.usage, conversationId: answer.conversationId },
          tokens: answer.usage.totalTokens,
        };
      }
      case 'http': {
        const url = renderText(step.url, scope);
        let host: string;
        try {
          host = new URL(url).hostname.toLowerCase();
        } catch {
          throw new PermanentStepError(`url ${url.slice(0, 200)} is not an absolute URL`);
        }
        if (!run.definition.allowedHosts.includes(host)) throw new PermanentStepError(`host ${host} is not in the workflow's allowedHosts`);
        const headers: Record<string, string> = {};
        const templates = step.headers ?? {};
        const needsSecrets = Object.values(templates).some((v) => READS_SECRET.test(v));
        const withSecrets: RunScope = needsSecrets ? { ...scope, secrets: (await s.secrets?.(run.workflowId)) ?? {} } : scope;
        for (const [k, v] of Object.entries(templates)) headers[k] = renderText(v, withSecrets);
        const bodyValue = step.body === undefined ? undefined : renderValue(step.body, scope);
        const body = bodyValue === undefined ? undefined : typeof bodyValue === 'string' ? bodyValue : JSON.stringify(bodyValue);
        if (body !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = typeof bodyValue === 'string' ? 'text/plain' : 'application/json';
        const recorded = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SECRET_HEADER.test(k) || READS_SECRET.test(templates[k] ?? '') ? '[hidden]' : v]));
        const answer = await s.http.request({ method: step.method, url, headers, body, timeoutMs: MAX_HTTP_TIMEOUT_MS });
        if (answer.status >= 500) throw new Error(`${host} answered ${answer.status}`);
        let parsed: unknown = answer.body;
        if (/json/i.test(answer.headers['content-type'] ?? '')) {
          try {
            parsed = JSON.parse(answer.body);
          } catch {
            parsed = answer.body;
          }
        }
        return { input: { method: step.method, url, headers: recorded, ...(bodyValue !== undefined ? { body: bodyValue } : {}) }, output: { status: answer.status, headers: answer.headers, body: parsed }, tokens: 0 };
      }
      case 'plugin': {
        if (!s.plugins) throw new PermanentStepError('plugins are not available in this deployment');
        const path = renderText(step.path, scope);
        const body = step.body === undefined ? null : renderValue(step.body, scope);
        const resolved = await s.plugins.resolve({ pluginId: step.pluginId, applicationId: run.applicationId, method: step.method, path });
        const answer = await s.plugins.execute(resolved, { pluginId: step.pluginId, applicationId: run.applicationId, method: step.method, path, query: {}, headers: {}, body }, { userId: run.ownerId });
        if (answer.status >= 500) throw new Error(`the plugin answered ${answer.status}${isObject(answer.body) && typeof answer.body.message === 'string' ? `: ${answer.body.message}` : ''}`);
        return { input: { pluginId: step.pluginId, method: step.method, path, body }, output: { status: answer.status, body: answer.body }, tokens: 0 };
      }
    }
  }
}
