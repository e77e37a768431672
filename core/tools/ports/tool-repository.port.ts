import type { AgentSettings } from '../domain/agent-settings';
import type { Tool } from '../domain/tool';

export type NewTool = Omit<Tool, 'createdAt' | 'updatedAt'>;
export type ToolChange = Partial<Pick<Tool, 'name' | 'description' | 'parameters' | 'source' | 'timeoutMs' | 'secretsSealed'>>;

/** An application's tools and agent settings. A second tool of one name in an application is a ConflictError. */
export interface ToolRepository {
  create(tool: NewTool): Promise<Tool>;
  findById(id: string): Promise<Tool | null>;
  listByApplication(applicationId: string): Promise<Tool[]>;
  /** The changed tool, or null when it is gone. */
  update(id: string, change: ToolChange): Promise<Tool | null>;
  delete(id: string): Promise<boolean>;
  /** The stored settings, or null when the application never saved any (the defaults apply). */
  agentSettings(applicationId: string): Promise<AgentSettings | null>;
  saveAgentSettings(applicationId: string, settings: AgentSettings): Promise<AgentSettings>;
}
