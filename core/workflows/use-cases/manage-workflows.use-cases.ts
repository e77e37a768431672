import * as yup from 'yup';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import { parseTeamFilter } from '../../applications/use-cases/list-applications.use-case';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { parsePageRequest, type Page } from '../../shared/pagination';
import { idField, str, validate } from '../../shared/validation';
import { parseDefinition } from '../domain/definition';
import { parseSecrets, workflowSecretAad } from '../domain/secrets';
import { newId } from '../../shared/ids';
import { toWorkflowView, type WorkflowView } from '../domain/workflow';
import { checkServices, findOwnedWorkflow, syncSchedule, type WorkflowDeps } from './workflow-deps';

/** The most workflows one owner may hold. */
export const MAX_WORKFLOWS_PER_OWNER = 200;

const fields = {
  name: () => str().matches(/\S/, 'name must not be blank').max(120, 'name must be at most 120 characters'),
  description: () => str().max(2000, 'description must be at most 2000 characters'),
  steps: () => yup.mixed(),
  allowedHosts: () => yup.mixed(),
  limits: () => yup.mixed(),
  trigger: () => yup.mixed(),
  secrets: () => yup.mixed(),
};

const createSchema = yup.object({
  applicationId: idField().required('applicationId is required'),
  name: fields.name().required('name is required'),
  description: fields.description(),
  steps: fields.steps(),
  allowedHosts: fields.allowedHosts(),
  limits: fields.limits(),
  trigger: fields.trigger(),
  secrets: fields.secrets(),
});

const updateSchema = yup.object({
  name: fields.name(),
  description: fields.description(),
  steps: fields.steps(),
  allowedHosts: fields.allowedHosts(),
  limits: fields.limits(),
  trigger: fields.trigger(),
  secrets: fields.secrets(),
});

/** `POST /api/workflows`: a workflow in one of the caller's applications, its graph checked before it is stored. */
export class CreateWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(input: unknown, actor: Actor): Promise<WorkflowView> {
    const body = await validate(createSchema, input);
    const application = await findOwnedApplication(this.deps.applications, body.applicationId, actor, 'write');
    const secrets = parseSecrets(body.secrets, false);
    const definition = parseDefinition(body, Object.keys(secrets.set));
    checkServices(this.deps, definition);
    const id = newId();
    const secretsSealed = Object.fromEntries(Object.entries(secrets.set).map(([name, value]) => [name, this.deps.secretBox.seal(value, workflowSecretAad(id, name))]));
    // The application's owner: whose plan, keys and quota the runs use.
    const held = await this.deps.workflows.listByOwner(application.ownerId, undefined, 0, 1);
    if (held.total >= MAX_WORKFLOWS_PER_OWNER) throw ValidationError.field('name', `An account holds at most ${MAX_WORKFLOWS_PER_OWNER} workflows`);
    const created = await this.deps.workflows.create({ id, ownerId: application.ownerId, applicationId: application.id, name: body.name, description: body.description ?? '', definition, secretsSealed });
    try {
      await syncSchedule(this.deps.scheduler, created);
    } catch (error) {
      // The scheduler refused what the check let through (BullMQ's cron-parser is stricter): nothing stays.
      await this.deps.workflows.delete(created.id);
      throw error;
    }
    return toWorkflowView(created);
  }
}

export class ListWorkflowsUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(query: { page?: unknown; limit?: unknown; applicationId?: unknown; teamId?: unknown }, actor: Actor): Promise<Page<WorkflowView>> {
    const { page, limit } = parsePageRequest(query);
    if (query.applicationId !== undefined && !isUuid(query.applicationId)) throw ValidationError.field('applicationId', 'applicationId must be an application id');
    const teamId = parseTeamFilter(query.teamId);
    // One application's workflows for whoever may see it; without one, those of every application the caller sees.
    const found =
      query.applicationId !== undefined
        ? await this.deps.workflows.listByOwner(
            (await findOwnedApplication(this.deps.applications, query.applicationId, actor, 'read')).ownerId,
            query.applicationId,
            (page - 1) * limit,
            limit,
          )
        : await this.deps.workflows.listVisible(actor.userId, teamId, (page - 1) * limit, limit);
    return { data: found.items.map(toWorkflowView), total: found.total, page, limit };
  }
}

export class GetWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(id: string, actor: Actor): Promise<WorkflowView> {
    return toWorkflowView(await findOwnedWorkflow(this.deps, id, actor, 'read'));
  }
}

/** `PUT /api/workflows/:id`: a changed graph is checked whole and raises the version; runs in progress keep theirs. */
export class UpdateWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(id: string, input: unknown, actor: Actor): Promise<WorkflowView> {
    const current = await findOwnedWorkflow(this.deps, id, actor, 'write');
    const body = await validate(updateSchema, input);
    const secrets = parseSecrets(body.secrets, true);
    const secretsChanged = body.secrets !== undefined;
    let secretsSealed: Record<string, string> | undefined;
    if (secretsChanged) {
      secretsSealed = { ...current.secretsSealed };
      for (const name of secrets.remove) delete secretsSealed[name];
      for (const [name, value] of Object.entries(secrets.set)) secretsSealed[name] = this.deps.secretBox.seal(value, workflowSecretAad(current.id, name));
    }
    const secretNames = Object.keys(secretsSealed ?? current.secretsSealed);
    const graphChanged = ['steps', 'allowedHosts', 'limits', 'trigger'].some((k) => (body as Record<string, unknown>)[k] !== undefined);
    let definition;
    if (graphChanged || secretsChanged) {
      const d = current.definition;
      definition = parseDefinition({
        steps: body.steps !== undefined ? body.steps : d.steps,
        allowedHosts: body.allowedHosts !== undefined ? body.allowedHosts : d.allowedHosts,
        limits: body.limits !== undefined ? body.limits : d.limits,
        trigger: body.trigger !== undefined ? body.trigger : d.trigger,
      }, secretNames);
      checkServices(this.deps, definition);
    }
    const updated = await this.deps.workflows.update(current.id, { name: body.name, description: body.description, definition: graphChanged ? definition : undefined, secretsSealed });
    if (!updated) return toWorkflowView(await findOwnedWorkflow(this.deps, id, actor, 'write'));
    if (graphChanged) {
      try {
        await syncSchedule(this.deps.scheduler, updated);
      } catch (error) {
        await this.deps.workflows.update(current.id, { name: current.name, description: current.description, definition: current.definition, secretsSealed: current.secretsSealed });
        await syncSchedule(this.deps.scheduler, current).catch(() => undefined);
        throw error;
      }
    }
    return toWorkflowView(updated);
  }
}

export class DeleteWorkflowUseCase {
  constructor(private readonly deps: WorkflowDeps) {}

  async execute(id: string, actor: Actor): Promise<void> {
    const workflow = await findOwnedWorkflow(this.deps, id, actor, 'write');
    if (workflow.definition.trigger.schedule) await this.deps.scheduler.unschedule(workflow.id);
    await this.deps.workflows.delete(workflow.id);
  }
}
