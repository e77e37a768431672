import type { AgentSettings } from '../../core/tools/domain/agent-settings';
import type { Tool } from '../../core/tools/domain/tool';
import type { NewTool, ToolChange, ToolRepository } from '../../core/tools/ports/tool-repository.port';
import type { Cache } from '../../core/shared/cache.port';

/**
 * Every chat turn asks whether its application has tools enabled (docs/tools.md): the agent settings are
 * cached (region `agent`, no secrets in them) so that a turn without tools costs no statement. The tools
 * themselves (sealed secrets) are never cached: a turn with tools reads them. Writes through this
 * repository invalidate; the settings table has no other writer.
 */
export class CachedToolRepository implements ToolRepository {
  constructor(private readonly inner: ToolRepository, private readonly cache: Cache) {}

  create(tool: NewTool): Promise<Tool> {
    return this.inner.create(tool);
  }
  findById(id: string): Promise<Tool | null> {
    return this.inner.findById(id);
  }
  listByApplication(applicationId: string): Promise<Tool[]> {
    return this.inner.listByApplication(applicationId);
  }
  async update(id: string, change: ToolChange): Promise<Tool | null> {
    try {
      return await this.inner.update(id, change);
    } finally {
      await this.cache.invalidateRegion('agent');
    }
  }
  async delete(id: string): Promise<boolean> {
    try {
      return await this.inner.delete(id);
    } finally {
      await this.cache.invalidateRegion('agent');
    }
  }
  agentSettings(applicationId: string): Promise<AgentSettings | null> {
    return this.cache.getOrLoad(`agent:${applicationId}`, () => this.inner.agentSettings(applicationId));
  }
  async saveAgentSettings(applicationId: string, settings: AgentSettings): Promise<AgentSettings> {
    try {
      return await this.inner.saveAgentSettings(applicationId, settings);
    } finally {
      await this.cache.invalidate(`agent:${applicationId}`);
    }
  }
}
