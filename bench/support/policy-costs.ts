import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { analyticsPolicy } from '../../apps/core-api/modules/analytics.module';
import { keysAndQuotaPolicy } from '../../apps/core-api/modules/billing.module';
import { knowledgeRetrievalPolicy } from '../../apps/core-api/modules/knowledge.module';
import { modelConfigPolicy } from '../../apps/core-api/modules/model-configs.module';
import { pluginChatPolicy } from '../../apps/core-api/modules/plugins.module';
import { CHAT_TOKENS } from '../../apps/shared/modules/chat-engine.tokens';
import { EVENT_TOKENS } from '../../apps/shared/modules/event.tokens';
import { resolve, TOKENS } from '../../apps/shared/tokens';
import type { DomainEvent } from '../../core/events/domain/domain-event';
import type { EventSubscriber } from '../../core/events/ports/event-subscriber.port';
import type { ChatOutcome, ChatPlan, ChatPolicy, ChatTurn } from '../../core/conversations/ports/chat-policy.port';
import { findOwnedConversation } from '../../core/conversations/use-cases/find-owned-conversation';
import { paidUserWithApplication, startCoreApi } from '../../tests/support/test-stack';

export interface StepCost {
  step: string;
  p50: number;
  p90: number;
  /** Statements the step sends to the database (the fewest seen in a turn). */
  statements: number;
}

/**
 * What each step of a chat turn costs with none of the features in use (an application with no model
 * config, prompt template, plugin, document, webhook or workflow; a Pro owner on the platform key): each
 * chat policy's `prepare` and `settle`, the access check (team access), the turn's events written, and the
 * work the event subscribers do for them in the background (on the same database). In one process on the
 * embedded PGlite (the test stack's), each step called directly, `turns` times in interleaved rounds.
 */
export async function policyCosts(turns: number): Promise<StepCost[]> {
  const stack = await startCoreApi({ providers: true, engine: 'in-process', env: { LOG_LEVEL: 'silent' } });
  try {
    const c = stack.core.container;
    const owner = await paidUserWithApplication(stack, 'pro');
    const created = await stack.client.post('/api/conversations', { applicationId: owner.app.id }, { token: owner.token });
    const actor = { userId: owner.user.id, role: 'user' as const };
    const deps = { conversations: resolve(c, CHAT_TOKENS.ConversationRepository), applications: resolve(c, TOKENS.ApplicationRepository) };
    const policies: [string, ChatPolicy][] = [
      ['model config', modelConfigPolicy(c)],
      ['keys and quota', keysAndQuotaPolicy(c)],
      ['plugins', pluginChatPolicy(c)],
      ['knowledge', knowledgeRetrievalPolicy(c)],
      ['analytics', analyticsPolicy(c)],
    ];
    const events = resolve(c, EVENT_TOKENS.Publisher);
    const subscribers: EventSubscriber[] = c.isBound(EVENT_TOKENS.Subscriber) ? c.getAll(EVENT_TOKENS.Subscriber) : [];

    // Statements counted at the database's session (the pool's runner), as the steps send them.
    const pool = (stack.infra.dataSource.driver as unknown as { master: { runner: { run: (...args: unknown[]) => unknown } } }).master;
    let statements = 0;
    const run = pool.runner.run.bind(pool.runner);
    pool.runner.run = (...args: unknown[]) => {
      statements++;
      return run(...args);
    };

    const samples: Record<string, number[]> = {};
    const counts: Record<string, number> = {};
    const time = async (step: string, fn: () => Promise<unknown>) => {
      const before = statements;
      const t0 = performance.now();
      await fn();
      (samples[step] ??= []).push(performance.now() - t0);
      // The fewest over the turns: the event dispatcher's statements, in the background, land in some steps' time.
      counts[step] = Math.min(counts[step] ?? Infinity, statements - before);
    };
    const outcome: ChatOutcome = { ok: true, usage: { promptTokens: 12, completionTokens: 30, totalTokens: 42 }, latencyMs: 20, provider: 'provider_a', model: 'gpt-4o-mini', content: 'hello' };
    const oneTurn = async () => {
      let turn!: ChatTurn;
      await time('team access (the conversation and its application, authorized)', async () => {
        const found = await findOwnedConversation(deps, created.body.id, actor, 'turn', 'read');
        turn = { ownerId: found.application.ownerId, application: found.application, conversation: found.conversation, content: 'hi', source: 'dashboard' };
      });
      const plan: ChatPlan = { provider: 'provider_a', model: 'gpt-4o-mini', settings: {} };
      for (const [name, policy] of policies) await time(`${name}: prepare`, () => policy.prepare(turn, plan));
      for (const [name, policy] of policies) if (policy.settle) await time(`${name}: settle`, () => policy.settle!(turn, plan, outcome));
      const turnEvents = [
        { type: 'message.received' as const, ownerId: turn.ownerId, applicationId: turn.application.id, data: { applicationId: turn.application.id, conversationId: turn.conversation.id, messageId: null, source: 'dashboard' } },
        { type: 'message.completed' as const, ownerId: turn.ownerId, applicationId: turn.application.id, data: { applicationId: turn.application.id, conversationId: turn.conversation.id, messageId: null, provider: 'provider_a', model: 'gpt-4o-mini', usage: outcome.usage, latencyMs: 20, interrupted: false } },
      ];
      await time('events: the turn\'s events written', () => events.publish(...turnEvents));
      // What the dispatcher then does for them, subscriber by subscriber (in the background of the next turn).
      for (const subscriber of subscribers) {
        await time(`events: subscriber ${subscriber.name}`, async () => {
          for (const e of turnEvents) await subscriber.handle({ ...e, id: `evt_${randomBytes(16).toString('hex')}`, timestamp: new Date().toISOString() } as unknown as DomainEvent);
        });
      }
    };
    for (let i = 0; i < 50; i++) await oneTurn(); // warm-up: caches and prepared statements, as in a server in use
    for (const key of Object.keys(samples)) samples[key] = [];
    for (let i = 0; i < turns; i++) await oneTurn();
    return Object.entries(samples).map(([step, xs]) => ({ step, p50: quantile(xs, 0.5), p90: quantile(xs, 0.9), statements: counts[step] ?? 0 }));
  } finally {
    await stack.close();
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
};
