import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import type { Actor } from '../../shared/actor';
import type { JsonObject, Tool, ToolSource } from '../domain/tool';
import type { ToolRepository } from '../ports/tool-repository.port';
import type { ToolSourceCatalog } from '../ports/tool-source.port';
import type { ToolDeps } from './tool-deps';

/** A tool the owner may enable, from whichever source; `available` false says why it cannot be offered. */
export interface AvailableToolView {
  name: string;
  description: string;
  parameters: JsonObject;
  source: ToolSource;
  /** `application` (its own tools), `plugin`, `mcp`. */
  origin: string;
  timeoutMs: number;
  available: boolean;
  reason?: string;
}

interface Entry {
  tool: Tool;
  origin: string;
  problem?: string;
}

/**
 * Every tool an application has: its own definitions first, then its active plugins' tools, then its MCP
 * servers' tools. A name is the application's once: a later tool of a name already taken is listed as not
 * available (the owner renames the MCP server, or the application's own tool). The turn loop is given
 * `forTurn`, the catalogue `GET …/tools/available` the whole list.
 */
export class ApplicationToolset {
  constructor(private readonly deps: { tools: ToolRepository; sources: ToolSourceCatalog[] }) {}

  async entries(applicationId: string): Promise<Entry[]> {
    const entries: Entry[] = (await this.deps.tools.listByApplication(applicationId)).map((tool) => ({ tool, origin: 'application' }));
    const taken = new Map(entries.map((e) => [e.tool.name, 'application']));
    for (const source of this.deps.sources) {
      for (const { tool, problem } of await source.toolsOf(applicationId)) {
        const holder = taken.get(tool.name);
        if (holder) {
          entries.push({ tool, origin: source.origin, problem: problem ?? `the name ${tool.name} is already taken by ${holder === 'application' ? "one of the application's own tools" : `a ${holder} tool`}` });
          continue;
        }
        entries.push({ tool, origin: source.origin, ...(problem ? { problem } : {}) });
        if (!problem) taken.set(tool.name, source.origin);
      }
    }
    return entries;
  }

  /** The tools a turn may offer (those the agent settings enable are chosen by the loop). */
  async forTurn(applicationId: string): Promise<Tool[]> {
    return (await this.entries(applicationId)).filter((e) => !e.problem).map((e) => e.tool);
  }

  /** Names the agent settings may enable. */
  async names(applicationId: string): Promise<Set<string>> {
    return new Set((await this.forTurn(applicationId)).map((t) => t.name));
  }
}

/** `GET /api/applications/:appId/tools/available`: what the agent settings can enable, from every source. */
export class ListAvailableToolsUseCase {
  constructor(private readonly deps: Pick<ToolDeps, 'applications'> & { toolset: ApplicationToolset }) {}

  async execute(applicationId: string, actor: Actor): Promise<AvailableToolView[]> {
    const application = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    return (await this.deps.toolset.entries(application.id)).map(({ tool, origin, problem }) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      source: tool.source,
      origin,
      timeoutMs: tool.timeoutMs,
      available: !problem,
      ...(problem ? { reason: problem } : {}),
    }));
  }
}
