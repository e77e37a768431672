import type { JsonSchemaChecker } from '../../../core/tools/ports/json-schema.port';
import type { ToolRepository } from '../../../core/tools/ports/tool-repository.port';
import type { TurnToolsLoader } from '../../../core/tools/use-cases/turn-tools';
import { token } from '../../shared/tokens';
import type { McpClient } from '../../../core/tools/ports/mcp-client.port';
import type { McpServerRepository } from '../../../core/tools/ports/mcp-server-repository.port';
import type { ToolRunnerRegistry } from '../../../core/tools/ports/tool-runner.port';
import type { ApplicationToolset } from '../../../core/tools/use-cases/application-toolset';

export const TOOL_TOKENS = {
  Repository: token<ToolRepository>('ToolRepository'),
  Schemas: token<JsonSchemaChecker>('ToolJsonSchemas'),
  McpServers: token<McpServerRepository>('McpServerRepository'),
  McpClient: token<McpClient>('McpClient'),
  /** Every tool of an application from every source: the turn loop's `tools` come from `forTurn`. */
  Toolset: token<ApplicationToolset>('ApplicationToolset'),
  /** The runners of every source (http, plugin, mcp, the built-ins): the turn loop's `runners`. */
  Runners: token<ToolRunnerRegistry>('ToolRunners'),
  /** The tools a chat turn may call (ChatTurnRunner's `tools`), from every source. */
  TurnTools: token<TurnToolsLoader>('TurnToolsLoader'),
} as const;
