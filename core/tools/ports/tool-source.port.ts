import type { Tool } from '../domain/tool';

/**
 * Tools an application has from somewhere other than its own definitions (its active plugins, its MCP
 * servers): listed when a turn or the catalogue needs them, never stored as tool rows.
 */
export interface ToolSourceCatalog {
  /** Which source this is, for the catalogue (`plugin`, `mcp`). */
  readonly origin: string;
  /** The tools the source offers the application now, with a reason for each one that cannot be offered. */
  toolsOf(applicationId: string): Promise<Array<{ tool: Tool; problem?: string }>>;
}
