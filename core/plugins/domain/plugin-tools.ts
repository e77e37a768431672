import { MAX_DESCRIPTION, MAX_SCHEMA_BYTES, MAX_TOOL_TIMEOUT_MS, TOOL_NAME } from '../../tools/domain/tool';
import type { JsonSchemaChecker } from '../../tools/ports/json-schema.port';
import type { PluginToolDeclaration } from './definition';
import { PluginCallError } from './plugin-errors';

/** At most this many tools per plugin: each one is prompt text on every turn that offers it. */
export const MAX_PLUGIN_TOOLS = 32;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What a plugin's `tools` declared, checked when its code is loaded (so activation refuses a bad one with
 * the reason): names as every provider accepts them and unique, a description, an object JSON Schema the
 * kept validator compiles, at most 16 KB, and a timeout within the tool limits.
 */
export function checkPluginTools(tools: PluginToolDeclaration[], schemas?: JsonSchemaChecker): PluginToolDeclaration[] {
  if (tools.length > MAX_PLUGIN_TOOLS) throw new PluginCallError(`a plugin declares at most ${MAX_PLUGIN_TOOLS} tools`);
  const names = new Set<string>();
  return tools.map((tool) => {
    const label = `tool "${String(tool.name).slice(0, 64)}"`;
    if (!TOOL_NAME.test(tool.name)) throw new PluginCallError(`${label}: names are 1 to 64 letters, digits, _ or -`);
    if (names.has(tool.name)) throw new PluginCallError(`${label} is declared twice`);
    names.add(tool.name);
    if (!tool.description.trim() || tool.description.length > MAX_DESCRIPTION) throw new PluginCallError(`${label}: description is required, at most ${MAX_DESCRIPTION} characters`);
    if (!isObject(tool.parameters) || tool.parameters.type !== 'object') throw new PluginCallError(`${label}: parameters must be a JSON Schema describing an object ("type": "object")`);
    if (Buffer.byteLength(JSON.stringify(tool.parameters)) > MAX_SCHEMA_BYTES) throw new PluginCallError(`${label}: parameters must be at most ${MAX_SCHEMA_BYTES / 1024} KB of JSON`);
    const problem = schemas?.problemWithSchema(tool.parameters);
    if (problem) throw new PluginCallError(`${label}: parameters is not a valid JSON Schema: ${problem}`);
    if (tool.timeoutMs !== undefined && (!Number.isInteger(tool.timeoutMs) || tool.timeoutMs < 100 || tool.timeoutMs > MAX_TOOL_TIMEOUT_MS)) {
      throw new PluginCallError(`${label}: timeoutMs must be a whole number from 100 to ${MAX_TOOL_TIMEOUT_MS}`);
    }
    return { name: tool.name, description: tool.description, parameters: tool.parameters, ...(tool.timeoutMs !== undefined ? { timeoutMs: tool.timeoutMs } : {}) };
  });
}
