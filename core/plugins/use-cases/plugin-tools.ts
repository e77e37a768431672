import { DEFAULT_TOOL_TIMEOUT_MS, type Tool } from '../../tools/domain/tool';
import { ToolFailure, type ToolCallContext, type ToolRunner } from '../../tools/ports/tool-runner.port';
import type { ToolSourceCatalog } from '../../tools/ports/tool-source.port';
import { PluginCallError } from '../domain/plugin-errors';
import type { PluginRuntime } from './plugin-runtime';

/**
 * Plugin tools (docs/plugins.md "Tools"): the tools the application's active installations declare, and
 * their calls, run in the installation's isolate with its memory limit, the CPU limit of a plugin call
 * and the tool's wall time. A failure is the model's to read (the plugin's own message, or which limit
 * cut it), and counts toward the installation's circuit breaker like any failed plugin call.
 */
export class PluginTools implements ToolSourceCatalog, ToolRunner {
  readonly origin = 'plugin';
  /**
   * The last call queued per installation. A plugin's calls share its isolate, and a call cut at the CPU limit
   * takes the isolate down with whatever else runs in it: one installation's tool calls run one after another, so
   * a turn's parallel calls never abandon each other.
   */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly runtime: PluginRuntime) {}

  async toolsOf(applicationId: string): Promise<Array<{ tool: Tool }>> {
    const active = await this.runtime.active(applicationId);
    const found: Array<{ tool: Tool }> = [];
    for (const installation of active) {
      // A plugin whose code does not load offers nothing; its hooks record the failure.
      const loaded = await this.runtime.load(installation).catch(() => null);
      for (const declared of loaded?.definition.tools ?? []) {
        found.push({
          tool: {
            id: `plugin:${installation.id}:${declared.name}`,
            ownerId: installation.ownerId,
            applicationId: installation.applicationId,
            name: declared.name,
            description: declared.description,
            parameters: declared.parameters,
            source: { type: 'plugin', pluginId: installation.pluginId, installationId: installation.id, tool: declared.name },
            timeoutMs: Math.min(declared.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, this.runtime.limits.call.wallMs),
            secretsSealed: {},
            createdAt: installation.installedAt,
            updatedAt: installation.updatedAt,
          },
        });
      }
    }
    return found;
  }

  async run(tool: Tool, args: Record<string, unknown>, context: ToolCallContext): Promise<string> {
    const source = tool.source;
    if (source.type !== 'plugin') throw new ToolFailure('not a plugin tool');
    // Looked up again: a plugin deactivated since the turn began no longer runs.
    const installation = (await this.runtime.active(context.applicationId)).find((i) => i.id === source.installationId);
    if (!installation) throw new ToolFailure('the plugin that provides this tool is not active');
    const limits = { cpuMs: this.runtime.limits.call.cpuMs, wallMs: Math.min(this.runtime.limits.call.wallMs, tool.timeoutMs) };
    const call = this.inTurn(installation.id, () => this.runtime.call(installation, { kind: 'tool', name: source.tool }, args, limits));
    let result: unknown;
    try {
      result = await call;
    } catch (error) {
      throw new ToolFailure(failureText(error));
    }
    return typeof result === 'string' ? result : JSON.stringify(result ?? null);
  }

  private inTurn<T>(installationId: string, run: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(installationId) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => undefined);
    this.queues.set(installationId, settled);
    void settled.then(() => {
      if (this.queues.get(installationId) === settled) this.queues.delete(installationId);
    });
    return next;
  }
}

function failureText(error: unknown): string {
  if (!(error instanceof PluginCallError)) return 'the plugin tool failed';
  if (error.reason === 'timeout') return /CPU/.test(error.message) ? 'the tool ran past its CPU time limit' : 'the tool ran past its time limit';
  if (error.reason === 'memory') return 'the tool ran out of memory';
  if (error.reason === 'result') return 'the tool answered more than a plugin may return';
  if (error.reason === 'unavailable') return 'the plugin that provides this tool is not loaded';
  // The plugin's own message (what its handler threw), for the model to act on.
  return error.message.slice(0, 500);
}
