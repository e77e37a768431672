import type { McpServer } from '../domain/mcp-server';

export type NewMcpServer = Omit<McpServer, 'createdAt' | 'updatedAt'>;
export type McpServerChange = Partial<Omit<McpServer, 'id' | 'ownerId' | 'applicationId' | 'createdAt' | 'updatedAt'>>;

/** An application's MCP servers. A second server of one name in an application is a ConflictError. */
export interface McpServerRepository {
  create(server: NewMcpServer): Promise<McpServer>;
  findById(id: string): Promise<McpServer | null>;
  listByApplication(applicationId: string): Promise<McpServer[]>;
  /** The changed server, or null when it is gone. */
  update(id: string, change: McpServerChange): Promise<McpServer | null>;
  delete(id: string): Promise<boolean>;
}
