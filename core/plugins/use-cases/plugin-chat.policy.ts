import type { ChatOutcome, ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import { PluginCallError, PluginRejectedError } from '../domain/plugin-errors';
import type { PluginRuntime } from './plugin-runtime';

const MAX_CONTENT = 100_000;

/**
 * Plugins on the chat path: `message:beforeSend` filters run by priority after the other policies and
 * may change the message, the system prompt and the settings, or refuse the turn (422, no provider
 * call); `message:afterReceive` runs after the answer without delaying it. A failing filter is skipped.
 */
export class PluginChatPolicy implements ChatPolicy {
  readonly name = 'plugins';

  constructor(private readonly runtime: PluginRuntime) {}

  async prepare(turn: ChatTurn, plan: ChatPlan): Promise<void> {
    const filters = await this.runtime.handlersOf(turn.application.id, 'message:beforeSend');
    if (filters.length === 0) return;
    let value = { content: turn.content, systemPrompt: (plan.settings.systemPrompt as string | undefined) ?? null, settings: { ...plan.settings } };
    for (const { loaded } of filters) {
      let result: unknown;
      try {
        result = await this.runtime.call(loaded.installation, { kind: 'hook', name: 'message:beforeSend' }, value, this.runtime.limits.hook);
      } catch (error) {
        if (error instanceof PluginCallError) continue;
        throw error;
      }
      if (result === undefined || result === null) continue;
      const changed = result as { reject?: unknown; content?: unknown; systemPrompt?: unknown; settings?: unknown };
      if (typeof changed.reject === 'string' && changed.reject !== '') throw new PluginRejectedError(changed.reject.slice(0, 1000));
      value = {
        content: typeof changed.content === 'string' && changed.content.length <= MAX_CONTENT ? changed.content : value.content,
        systemPrompt: typeof changed.systemPrompt === 'string' || changed.systemPrompt === null ? changed.systemPrompt : value.systemPrompt,
        settings: isPlainObject(changed.settings) ? { ...changed.settings } : value.settings,
      };
    }
    turn.content = value.content;
    const { systemPrompt: _fromFilterBelow, ...settings } = value.settings;
    plan.settings = value.systemPrompt ? { ...settings, systemPrompt: value.systemPrompt } : settings;
  }

  async settle(turn: ChatTurn, _plan: ChatPlan, outcome: ChatOutcome): Promise<void> {
    if (!outcome.ok || (await this.runtime.active(turn.application.id)).length === 0) return;
    this.runtime.runAction(turn.application.id, 'message:afterReceive', {
      conversationId: turn.conversation.id,
      content: outcome.content ?? null,
      usage: outcome.usage ?? null,
      provider: outcome.provider ?? null,
      model: outcome.model ?? null,
      latencyMs: outcome.latencyMs ?? null,
      interrupted: outcome.interrupted === true,
    });
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
