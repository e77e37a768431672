import type { ToolSource } from '../domain/tool';
import type { ToolRunner, ToolRunnerRegistry } from '../ports/tool-runner.port';

/** Runners keyed by source type, and built-ins by their name (`builtin:search_knowledge`). */
export class KeyedToolRunners implements ToolRunnerRegistry {
  private readonly runners = new Map<string, ToolRunner>();

  register(key: 'http' | 'plugin' | 'mcp' | `builtin:${string}`, runner: ToolRunner): this {
    this.runners.set(key, runner);
    return this;
  }

  runnerFor(source: ToolSource): ToolRunner | undefined {
    return this.runners.get(source.type === 'builtin' ? `builtin:${source.builtin}` : source.type);
  }
}
