import type { TurnTools } from '../../ai/ports/chat-engine.port';
import type { Tool } from '../domain/tool';
import type { ToolRepository } from '../ports/tool-repository.port';

/** Where a turn's tools come from: every source of the application (ApplicationToolset: own, plugin and MCP tools). */
export interface TurnToolCatalog {
  forTurn(applicationId: string): Promise<Tool[]>;
}

/**
 * The tools a chat turn of an application may call, fixed when the turn starts (docs/tools.md), or
 * undefined for a turn without tools: no tool enabled, or `toolChoice` `none`. The agent settings are
 * read through a cache, so a turn without tools reads nothing more; only a turn with tools reads them.
 */
export class TurnToolsLoader {
  constructor(
    private readonly tools: ToolRepository,
    /** Unset: the application's own tools only. */
    private readonly catalog?: TurnToolCatalog,
  ) {}

  async forApplication(applicationId: string, ownerId: string): Promise<TurnTools | undefined> {
    const settings = await this.tools.agentSettings(applicationId);
    if (!settings || settings.enabledTools.length === 0 || settings.toolChoice === 'none') return undefined;
    const offered = this.catalog ? await this.catalog.forTurn(applicationId) : await this.tools.listByApplication(applicationId);
    const enabled = offered.filter((t) => settings.enabledTools.includes(t.name));
    if (!enabled.length) return undefined;
    return { tools: enabled, settings, ownerId };
  }
}
