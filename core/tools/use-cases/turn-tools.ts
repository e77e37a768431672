import type { TurnTools } from '../../ai/ports/chat-engine.port';
import type { ToolRepository } from '../ports/tool-repository.port';

/**
 * The tools a chat turn of an application may call, fixed when the turn starts (docs/tools.md), or
 * undefined for a turn without tools: no tool enabled, or `toolChoice` `none`. The agent settings are
 * read through a cache, so a turn without tools reads nothing more; only a turn with tools reads them.
 */
export class TurnToolsLoader {
  constructor(private readonly tools: ToolRepository) {}

  async forApplication(applicationId: string, ownerId: string): Promise<TurnTools | undefined> {
    const settings = await this.tools.agentSettings(applicationId);
    if (!settings || settings.enabledTools.length === 0 || settings.toolChoice === 'none') return undefined;
    const enabled = (await this.tools.listByApplication(applicationId)).filter((t) => settings.enabledTools.includes(t.name));
    if (!enabled.length) return undefined;
    return { tools: enabled, settings, ownerId };
  }
}
