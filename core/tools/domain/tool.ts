/** A tool an application's model may call (docs/tools.md): what the model sees, and where the call goes. */
export interface Tool {
  id: string;
  ownerId: string;
  applicationId: string;
  /** What the model calls it by; unique per application. */
  name: string;
  description: string;
  /** JSON Schema of the arguments, an object at the top (checked with a kept validator on save). */
  parameters: JsonObject;
  source: ToolSource;
  /** How long one call may take before it is cut (ms). */
  timeoutMs: number;
  /** Each secret sealed (SecretBox, bound to the tool and name); only the names are ever shown. */
  secretsSealed: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export type JsonObject = Record<string, unknown>;

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Every provider accepts these; longer descriptions only cost prompt tokens. */
export const MAX_DESCRIPTION = 2000;
/** A schema is prompt text too: kept small. */
export const MAX_SCHEMA_BYTES = 16 * 1024;
export const DEFAULT_TOOL_TIMEOUT_MS = 10_000;
export const MAX_TOOL_TIMEOUT_MS = 60_000;
export const MAX_TOOLS_PER_APPLICATION = 64;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpToolMethod = (typeof HTTP_METHODS)[number];

/** Where a call goes: an HTTPS endpoint the owner describes, a built-in of the platform, a plugin, an MCP server. */
export type ToolSource =
  | {
      type: 'http';
      method: HttpToolMethod;
      /** May hold `{{args.NAME}}` placeholders (URL-encoded when filled). */
      url: string;
      /** Values may hold `{{secrets.NAME}}`, filled from the sealed secrets at call time only. */
      headers: Record<string, string>;
      /** Hosts the filled URL may reach (the URL's own host when empty). */
      allowedHosts: string[];
    }
  | { type: 'builtin'; builtin: 'search_knowledge' }
  | { type: 'builtin'; builtin: 'run_workflow'; workflowId: string }
  /** A tool an active plugin installation declares (never stored: listed from the plugin's code). */
  | { type: 'plugin'; pluginId: string; installationId: string; tool: string }
  /** A tool of a remote MCP server the owner connected (listed from the server's cached tool list). */
  | { type: 'mcp'; serverId: string; tool: string };

export const BUILTINS = ['search_knowledge', 'run_workflow'] as const;

/** What the API shows: never a secret's value. */
export interface ToolView {
  id: string;
  applicationId: string;
  name: string;
  description: string;
  parameters: JsonObject;
  source: ToolSource;
  timeoutMs: number;
  secretNames: string[];
  createdAt: string;
  updatedAt: string;
}

export function toToolView(tool: Tool): ToolView {
  return {
    id: tool.id,
    applicationId: tool.applicationId,
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    source: tool.source,
    timeoutMs: tool.timeoutMs,
    secretNames: Object.keys(tool.secretsSealed).sort(),
    createdAt: tool.createdAt.toISOString(),
    updatedAt: tool.updatedAt.toISOString(),
  };
}

/** What a sealed tool secret is bound to: its tool and name (a value copied elsewhere no longer opens). */
export const toolSecretAad = (toolId: string, name: string): string => `tool-secret:${toolId}:${name}`;
