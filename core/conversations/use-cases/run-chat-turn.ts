import type { ChatAnswer, ChatEngine, ChatMessageRequest, ChatStreamEvent, ConversationStart } from '../../ai/ports/chat-engine.port';
import type { NewDomainEvent } from '../../events/domain/domain-event';
import type { EventPublisher } from '../../events/ports/event-publisher.port';
import { estimateUsage } from '../../shared/tokens';
import type { ChatOutcome, ChatPlan, ChatPolicy, ChatTurn } from '../ports/chat-policy.port';

/**
 * Runs one turn through the policies and the engine: the shared path of the dashboard chat and the
 * public API, streamed or not.
 */
export class ChatTurnRunner {
  constructor(
    private readonly deps: {
      engine: ChatEngine;
      policies: ChatPolicy[];
      /**
       * Domain events of the turn (EVENTS.md). They are written as the turn settles but the answer does not
       * wait for the write (`drain` waits for those in flight at shutdown): the engine, possibly another
       * process, has stored the messages already, so awaiting would add the insert's commit to every turn
       * and guarantee nothing more.
       */
      events?: EventPublisher;
      /** A turn's events that could not be written: the answer stands, the failure is reported. */
      onPublishError?: (error: unknown) => void;
    },
  ) {}

  async assignOnCreate(application: ChatTurn['application']): Promise<{ configVersionId: string | null }> {
    let configVersionId: string | null = null;
    for (const policy of this.deps.policies) {
      const assigned = await policy.onConversationCreate?.(application);
      if (assigned?.configVersionId !== undefined) configVersionId = assigned.configVersionId;
    }
    return { configVersionId };
  }

  /**
   * `opening`, for a turn that opens a new conversation (`turn.conversation` is then a draft with a new
   * id): the engine creates it with the message, once every policy has admitted the turn, so a refused
   * first turn leaves nothing behind.
   */
  async send(turn: ChatTurn, request: ChatMessageRequest, signal?: AbortSignal, opening?: ConversationStart): Promise<ChatAnswer> {
    const plan = await this.prepare(turn, request);
    let answer: ChatAnswer;
    try {
      answer = await this.deps.engine.sendMessage(turn.conversation.id, this.toRequest(turn, plan, opening), signal);
    } catch (error) {
      await this.settle(turn, plan, { ok: false, error });
      throw error;
    }
    // Outside the try: a settle that fails must not settle the same answer a second time as a failure.
    await this.settle(turn, plan, { ok: true, usage: answer.usage, latencyMs: answer.latencyMs, provider: answer.provider, model: answer.model, content: answer.message.content });
    // After the settlement, so the insert never queues ahead of the turn's own statements.
    this.publishSoon(turn, opening, answer.userMessageId ?? null, { messageId: answer.message.id, provider: answer.provider, model: answer.model, usage: answer.usage, latencyMs: answer.latencyMs, interrupted: false });
    return answer;
  }

  async stream(turn: ChatTurn, request: ChatMessageRequest, signal?: AbortSignal, opening?: ConversationStart): Promise<AsyncIterable<ChatStreamEvent>> {
    const plan = await this.prepare(turn, request);
    let events: AsyncIterable<ChatStreamEvent>;
    try {
      events = await this.deps.engine.streamMessage(turn.conversation.id, this.toRequest(turn, plan, opening), signal);
    } catch (error) {
      await this.settle(turn, plan, { ok: false, error });
      throw error;
    }
    const settle = (outcome: ChatOutcome) => this.settle(turn, plan, outcome);
    const publish = (userMessageId: string | null, completed: Completed | null) => this.publishSoon(turn, opening, userMessageId, completed);
    return (async function* () {
      let outcome: ChatOutcome = { ok: false };
      let completed: Completed | null = null;
      let userMessageId: string | null = null;
      let partial = '';
      try {
        for await (const event of events) {
          if (event.type === 'chunk') partial += event.content;
          if (event.type === 'done') {
            userMessageId = event.userMessageId ?? null;
            outcome = { ok: true, usage: event.usage, latencyMs: event.latencyMs, provider: event.provider, model: event.model, content: event.fullResponse };
            completed = { messageId: event.messageId, provider: event.provider, model: event.model, usage: event.usage, latencyMs: event.latencyMs, interrupted: false };
          }
          yield event;
        }
      } finally {
        // A stream cut short after text was produced still cost tokens: count an estimate, so aborting
        // just before the end is no way around the quota.
        if (!outcome.ok && partial !== '') {
          outcome = { ok: true, interrupted: true, usage: estimateUsage(turn.content, partial), content: partial };
          completed = { messageId: null, provider: plan.provider ?? null, model: plan.model ?? null, usage: outcome.usage!, latencyMs: null, interrupted: true };
        }
        await settle(outcome);
        publish(userMessageId, completed);
      }
    })();
  }

  private async prepare(turn: ChatTurn, request: ChatMessageRequest): Promise<ChatPlan> {
    const plan: ChatPlan = { provider: request.provider, model: request.model, settings: { ...request.settings } };
    const prepared: ChatPolicy[] = [];
    try {
      for (const policy of this.deps.policies) {
        await policy.prepare(turn, plan);
        prepared.push(policy);
      }
    } catch (error) {
      // A later policy refused the turn: the earlier ones give back what they held (quota reservations).
      for (const policy of prepared) await policy.settle?.(turn, plan, { ok: false, error });
      throw error;
    }
    return plan;
  }

  private toRequest(turn: ChatTurn, plan: ChatPlan, opening?: ConversationStart): ChatMessageRequest {
    return {
      ...(opening ? { startConversation: opening } : {}),
      content: turn.content,
      provider: plan.provider,
      model: plan.model,
      settings: plan.settings,
      context: plan.context,
      apiKey: plan.apiKey,
      configVersionId: plan.configVersionId ?? turn.conversation.configVersionId,
      sources: plan.sources,
    };
  }

  /** Waits for the events of turns already answered to be written (at shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private readonly inFlight = new Set<Promise<void>>();

  private publishSoon(turn: ChatTurn, opening: ConversationStart | undefined, userMessageId: string | null, completed: Completed | null): void {
    if (!this.deps.events) return;
    const write = this.publish(turn, opening, userMessageId, completed).finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  /**
   * The turn's events: the conversation it opened, the user's message stored, and the answer when there
   * is one (complete or interrupted). `message.received` names the user's message the engine stored
   * (`messageId`; null only when a stream ended before the engine said it, e.g. cut short or failed).
   */
  private async publish(turn: ChatTurn, opening: ConversationStart | undefined, userMessageId: string | null, completed: Completed | null): Promise<void> {
    const events = this.deps.events;
    if (!events) return;
    const ids = { applicationId: turn.application.id, conversationId: turn.conversation.id };
    const event = (type: NewDomainEvent['type'], data: Record<string, unknown>): NewDomainEvent => ({ type, ownerId: turn.ownerId, applicationId: turn.application.id, data: { ...ids, ...data } });
    const list: NewDomainEvent[] = [];
    if (opening) list.push(event('conversation.started', { source: turn.source }));
    list.push(event('message.received', { messageId: userMessageId, source: turn.source }));
    if (completed) list.push(event('message.completed', { ...completed }));
    try {
      await events.publish(...list);
    } catch (error) {
      this.deps.onPublishError?.(error);
    }
  }

  private async settle(turn: ChatTurn, plan: ChatPlan, outcome: ChatOutcome): Promise<void> {
    for (const policy of this.deps.policies) await policy.settle?.(turn, plan, outcome);
  }
}

/** `message.completed`'s data beyond the conversation's ids (EVENTS.md). */
interface Completed {
  messageId: string | null;
  provider: string | null;
  model: string | null;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
  latencyMs: number | null;
  interrupted: boolean;
}
