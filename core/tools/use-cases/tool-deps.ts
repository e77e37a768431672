import type { AccessAction } from '../../access/roles';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Application } from '../../applications/domain/application';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { SecretBox } from '../../shared/secret-box.port';
import type { OutboundUrlRules } from '../../shared/outbound-url-rules.port';
import type { Tool, ToolSource } from '../domain/tool';
import type { JsonSchemaChecker } from '../ports/json-schema.port';
import type { ToolRepository } from '../ports/tool-repository.port';

export interface ToolDeps {
  tools: ToolRepository;
  applications: ApplicationRepository;
  schemas: JsonSchemaChecker;
  secretBox: SecretBox;
  /** The outbound rules the http tool runner's calls obey, applied to an http source when it is saved. */
  urls: OutboundUrlRules;
  /** The application a workflow belongs to (null when there is none), where workflows are served. */
  workflowApplication?: (workflowId: string) => Promise<string | null>;
  /** Names of every tool the application may enable (its own, its plugins', its MCP servers'); its own only without it. */
  toolNames?: (applicationId: string) => Promise<Set<string>>;
}

/** A `run_workflow` source must name a workflow of the same application: 400 naming the field otherwise. */
export async function checkWorkflowSource(deps: Pick<ToolDeps, 'workflowApplication'>, applicationId: string, source: ToolSource): Promise<void> {
  if (source.type !== 'builtin' || source.builtin !== 'run_workflow') return;
  const owner = deps.workflowApplication ? await deps.workflowApplication(source.workflowId) : null;
  if (owner !== applicationId) throw ValidationError.field('source.workflowId', 'source.workflowId must be the id of a workflow of this application');
}

/**
 * A tool of an application the caller may act on (core/access decides), or a 404 that does not tell
 * "not yours" from "does not exist". Reading needs `read`; changing needs `write`.
 */
export async function findOwnedTool(deps: Pick<ToolDeps, 'tools' | 'applications'>, applicationId: unknown, toolId: unknown, actor: Actor, action: AccessAction): Promise<{ application: Application; tool: Tool }> {
  const application = await findOwnedApplication(deps.applications, applicationId, actor, action);
  if (!isUuid(toolId)) throw new NotFoundError('Tool');
  const tool = await deps.tools.findById(toolId);
  if (!tool || tool.applicationId !== application.id) throw new NotFoundError('Tool');
  return { application, tool };
}
