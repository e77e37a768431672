import type { ChatOutcome, ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import { ATTR } from '../domain/attributes';
import type { Tracer } from './tracer';
import { publicFailure } from './traced-chat';

/**
 * The policies of a chat turn with its trace around them (docs/observability.md): the first policy starts the
 * turn's trace (root span `chat.turn`) and puts it on the turn, each policy's `prepare` is a span of its own
 * (`policy <name>`: model config, keys and quota, plugins' hooks, knowledge), and the trace is finished when the
 * turn is settled, keyed to the assistant message it stored. With tracing off the policies are returned as given.
 */
export function tracedPolicies(tracer: Tracer, policies: ChatPolicy[]): ChatPolicy[] {
  if (!tracer.enabled) return policies;
  return [new TraceTurnPolicy(tracer), ...policies.map(timedPolicy)];
}

/** Starts the turn's trace (root span `chat.turn`) and finishes it, keyed to the stored answer, when the turn is settled. */
export class TraceTurnPolicy implements ChatPolicy {
  readonly name = 'trace';

  constructor(private readonly tracer: Tracer) {}

  async prepare(turn: ChatTurn): Promise<void> {
    if (!this.tracer.enabled) return;
    // A new trace for every turn, even when a caller sends one turn object twice.
    turn.trace = this.tracer.startTurn('chat.turn', {
      [ATTR.operationName]: 'chat',
      [ATTR.channel]: turn.draft ? 'studio' : turn.source,
      [ATTR.conversationId]: turn.conversation.id,
      [ATTR.applicationId]: turn.application.id,
    });
    turn.trace?.keyTo({ conversationId: turn.conversation.id, applicationId: turn.application.id });
  }

  async settle(turn: ChatTurn, plan: ChatPlan, outcome: ChatOutcome): Promise<void> {
    const trace = turn.trace;
    if (!trace) return;
    const root = trace.root;
    root.set(ATTR.providerName, outcome.provider ?? plan.provider).set(ATTR.requestModel, outcome.model ?? plan.model);
    if (outcome.usage) {
      root.set(ATTR.inputTokens, outcome.usage.promptTokens).set(ATTR.outputTokens, outcome.usage.completionTokens);
      const provider = outcome.provider ?? plan.provider;
      const model = outcome.model ?? plan.model;
      if (provider && model) root.set(ATTR.costUsd, trace.costOf(provider, model, outcome.usage));
    }
    if (outcome.toolCalls?.length) root.set('app.tool_calls', outcome.toolCalls.length);
    if (outcome.interrupted) root.set('app.interrupted', true);
    if (!outcome.ok) {
      const failure = outcome.error !== undefined ? publicFailure(outcome.error) : { message: 'the answer failed', type: 'error' };
      root.fail(failure.message, failure.type);
    }
    if (outcome.messageId) {
      root.set(ATTR.messageId, outcome.messageId);
      trace.keyTo({ messageId: outcome.messageId });
    }
    trace.finish();
  }
}

/** A policy whose `prepare` is a span of the turn's trace. */
export function timedPolicy(policy: ChatPolicy): ChatPolicy {
  const wrapped: ChatPolicy = {
    name: policy.name,
    async prepare(turn, plan) {
      const span = turn.trace?.span(`policy ${policy.name}`, { [ATTR.policyName]: policy.name });
      try {
        await policy.prepare(turn, plan);
        span?.end();
      } catch (error) {
        const { message, type } = publicFailure(error);
        span?.fail(message, type).end();
        throw error;
      }
    },
  };
  if (policy.onConversationCreate) wrapped.onConversationCreate = (application) => policy.onConversationCreate!(application);
  if (policy.allowToolRounds) wrapped.allowToolRounds = (turn, plan, rounds) => policy.allowToolRounds!(turn, plan, rounds);
  if (policy.settle) wrapped.settle = (turn, plan, outcome) => policy.settle!(turn, plan, outcome);
  return wrapped;
}
