import * as yup from 'yup';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { bool, num, validate } from '../../shared/validation';
import {
  defaultAgentSettings,
  MAX_TIME_BUDGET_MS,
  MAX_TOOL_ROUNDS,
  MIN_TIME_BUDGET_MS,
  type AgentSettings,
  type ToolChoice,
} from '../domain/agent-settings';
import { TOOL_NAME } from '../domain/tool';
import type { ToolDeps } from './tool-deps';

const schema = yup.object({
  enabledTools: yup.mixed(),
  toolChoice: yup.mixed(),
  maxToolRounds: num().integer('maxToolRounds must be an integer').min(1, 'maxToolRounds must be at least 1').max(MAX_TOOL_ROUNDS, `maxToolRounds must be at most ${MAX_TOOL_ROUNDS}`),
  timeBudgetMs: num().integer('timeBudgetMs must be an integer').min(MIN_TIME_BUDGET_MS, `timeBudgetMs must be at least ${MIN_TIME_BUDGET_MS}`).max(MAX_TIME_BUDGET_MS, `timeBudgetMs must be at most ${MAX_TIME_BUDGET_MS}`),
  parallelCalls: bool(),
});

function parseEnabled(raw: unknown, known: Set<string>): string[] {
  if (!Array.isArray(raw) || raw.length > 64) throw ValidationError.field('enabledTools', 'enabledTools must be a list of at most 64 tool names');
  const names: string[] = [];
  for (const name of raw) {
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) throw ValidationError.field('enabledTools', 'enabledTools must hold tool names');
    if (!known.has(name)) throw ValidationError.field('enabledTools', `the application has no tool named ${name}`);
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

function parseChoice(raw: unknown, enabled: string[]): ToolChoice {
  if (raw === 'auto' || raw === 'none' || raw === 'required') return raw;
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && typeof (raw as { name?: unknown }).name === 'string') {
    const name = (raw as { name: string }).name;
    if (!enabled.includes(name)) throw ValidationError.field('toolChoice.name', `toolChoice names ${name.slice(0, 64)}, which is not an enabled tool`);
    return { name };
  }
  throw ValidationError.field('toolChoice', 'toolChoice must be auto, none, required, or { "name": "<enabled tool>" }');
}

/** `GET /api/applications/:appId/agent`: the stored settings, or the defaults. */
export class GetAgentSettingsUseCase {
  constructor(private readonly deps: ToolDeps) {}

  async execute(applicationId: string, actor: Actor): Promise<AgentSettings> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    return (await this.deps.tools.agentSettings(application.id)) ?? defaultAgentSettings();
  }
}

/** `PUT /api/applications/:appId/agent`: the fields given replace the current ones; the whole is checked. */
export class UpdateAgentSettingsUseCase {
  constructor(private readonly deps: ToolDeps) {}

  async execute(applicationId: string, input: unknown, actor: Actor): Promise<AgentSettings> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    const body = await validate(schema, input);
    const current = (await this.deps.tools.agentSettings(application.id)) ?? defaultAgentSettings();
    const known = this.deps.toolNames ? await this.deps.toolNames(application.id) : new Set((await this.deps.tools.listByApplication(application.id)).map((t) => t.name));
    const enabledTools = body.enabledTools !== undefined ? parseEnabled(body.enabledTools, known) : current.enabledTools.filter((n) => known.has(n));
    const toolChoice = parseChoice(body.toolChoice !== undefined ? body.toolChoice : current.toolChoice, enabledTools);
    const next: AgentSettings = {
      enabledTools,
      toolChoice,
      maxToolRounds: body.maxToolRounds ?? current.maxToolRounds,
      timeBudgetMs: body.timeBudgetMs ?? current.timeBudgetMs,
      parallelCalls: body.parallelCalls ?? current.parallelCalls,
    };
    return this.deps.tools.saveAgentSettings(application.id, next);
  }
}
