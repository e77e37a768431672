import * as yup from 'yup';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import { ConflictError, ValidationError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { num, str, validate } from '../../shared/validation';
import { DEFAULT_TOOL_TIMEOUT_MS, MAX_DESCRIPTION, MAX_TOOL_TIMEOUT_MS, MAX_TOOLS_PER_APPLICATION, TOOL_NAME, toolSecretAad, toToolView, type ToolView } from '../domain/tool';
import { checkHttpTarget, parseParameters, parseSource, parseToolSecrets } from '../domain/tool-input';
import { checkWorkflowSource, findOwnedTool, type ToolDeps } from './tool-deps';

const fields = {
  name: () => str().matches(TOOL_NAME, 'name must be 1 to 64 letters, digits, _ or -'),
  description: () => str().max(MAX_DESCRIPTION, `description must be at most ${MAX_DESCRIPTION} characters`),
  timeoutMs: () => num().integer('timeoutMs must be an integer').min(100, 'timeoutMs must be at least 100').max(MAX_TOOL_TIMEOUT_MS, `timeoutMs must be at most ${MAX_TOOL_TIMEOUT_MS}`),
};

const createSchema = yup.object({
  name: fields.name().required('name is required'),
  description: fields.description().required('description is required'),
  parameters: yup.mixed(),
  source: yup.mixed().required('source is required'),
  timeoutMs: fields.timeoutMs(),
  secrets: yup.mixed(),
});

const updateSchema = yup.object({
  name: fields.name(),
  description: fields.description(),
  parameters: yup.mixed(),
  source: yup.mixed(),
  timeoutMs: fields.timeoutMs(),
  secrets: yup.mixed(),
});

const nameTaken = (name: string) => new ConflictError(`The application already has a tool named ${name}`);

/** `POST /api/applications/:appId/tools`: a tool whose name, schema and source are checked before it is stored. */
export class CreateToolUseCase {
  constructor(private readonly deps: ToolDeps) {}

  async execute(applicationId: string, input: unknown, actor: Actor): Promise<ToolView> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    const body = await validate(createSchema, input);
    const parameters = parseParameters(body.parameters, this.deps.schemas);
    const secrets = parseToolSecrets(body.secrets, false);
    const source = parseSource(body.source, Object.keys(secrets.set));
    await checkWorkflowSource(this.deps, application.id, source);
    await checkHttpTarget(this.deps.urls, source);
    const existing = await this.deps.tools.listByApplication(application.id);
    if (existing.length >= MAX_TOOLS_PER_APPLICATION) throw ValidationError.field('name', `An application holds at most ${MAX_TOOLS_PER_APPLICATION} tools`);
    if (existing.some((t) => t.name === body.name)) throw nameTaken(body.name);
    const id = newId();
    const secretsSealed = Object.fromEntries(Object.entries(secrets.set).map(([name, value]) => [name, this.deps.secretBox.seal(value, toolSecretAad(id, name))]));
    const tool = await this.deps.tools.create({
      id,
      ownerId: application.ownerId,
      applicationId: application.id,
      name: body.name,
      description: body.description,
      parameters,
      source,
      timeoutMs: body.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS,
      secretsSealed,
    });
    return toToolView(tool);
  }
}

export class ListToolsUseCase {
  constructor(private readonly deps: ToolDeps) {}

  async execute(applicationId: string, actor: Actor): Promise<ToolView[]> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    return (await this.deps.tools.listByApplication(application.id)).map(toToolView);
  }
}

export class GetToolUseCase {
  constructor(private readonly deps: ToolDeps) {}

  async execute(applicationId: string, toolId: string, actor: Actor): Promise<ToolView> {
    return toToolView((await findOwnedTool(this.deps, applicationId, toolId, actor, 'read')).tool);
  }
}

/** `PUT …/tools/:toolId`: the fields given are checked as on create; secrets given as null are removed. */
export class UpdateToolUseCase {
  constructor(private readonly deps: ToolDeps) {}

  async execute(applicationId: string, toolId: string, input: unknown, actor: Actor): Promise<ToolView> {
    const { tool } = await findOwnedTool(this.deps, applicationId, toolId, actor, 'write');
    const body = await validate(updateSchema, input);
    const parameters = body.parameters !== undefined ? parseParameters(body.parameters, this.deps.schemas) : undefined;
    const secrets = parseToolSecrets(body.secrets, true);
    let secretsSealed: Record<string, string> | undefined;
    if (body.secrets !== undefined) {
      secretsSealed = { ...tool.secretsSealed };
      for (const name of secrets.remove) delete secretsSealed[name];
      for (const [name, value] of Object.entries(secrets.set)) secretsSealed[name] = this.deps.secretBox.seal(value, toolSecretAad(tool.id, name));
    }
    // A changed set of secrets re-checks the source's header references too.
    const source = body.source !== undefined || secretsSealed ? parseSource(body.source ?? tool.source, Object.keys(secretsSealed ?? tool.secretsSealed)) : undefined;
    if (body.source !== undefined && source) {
      await checkWorkflowSource(this.deps, tool.applicationId, source);
      await checkHttpTarget(this.deps.urls, source);
    }
    if (body.name !== undefined && body.name !== tool.name) {
      const others = await this.deps.tools.listByApplication(tool.applicationId);
      if (others.some((t) => t.name === body.name)) throw nameTaken(body.name);
    }
    const updated = await this.deps.tools.update(tool.id, { name: body.name, description: body.description, parameters, source, timeoutMs: body.timeoutMs, secretsSealed });
    return toToolView(updated ?? (await findOwnedTool(this.deps, applicationId, toolId, actor, 'write')).tool);
  }
}

/** `DELETE …/tools/:toolId`; the agent settings stop offering it (a name no tool holds is skipped). */
export class DeleteToolUseCase {
  constructor(private readonly deps: ToolDeps) {}

  async execute(applicationId: string, toolId: string, actor: Actor): Promise<void> {
    const { tool } = await findOwnedTool(this.deps, applicationId, toolId, actor, 'write');
    await this.deps.tools.delete(tool.id);
  }
}
