import type { AnswerToolCall, ChatAnswer, ChatEngine, ChatMessageRequest, ChatStreamEvent, ConversationStart, TurnTools } from '../../ai/ports/chat-engine.port';
import { estimateUsage } from '../../shared/tokens';
import { annotatedStream, type AnnotationReplier } from '../../logs/use-cases/annotation-replies';
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
       * Whether turns announce their domain events (EVENTS.md: `conversation.started`, `message.received`,
       * `message.completed`). The engine, possibly in another process, writes them in the statements that
       * store the messages they name, so a crash loses neither without the other.
       */
      announce?: boolean;
      /**
       * The tools the turn's application has enabled (docs/tools.md), or undefined: the engine then runs
       * the tool loop. Read once the policies admitted the turn; costs no statement when none are enabled.
       */
      tools?: (applicationId: string, ownerId: string) => Promise<TurnTools | undefined>;
      /** Annotation replies (docs/logs.md): a question close to an annotated one is answered from it, without the policies or the model. */
      annotations?: Pick<AnnotationReplier, 'reply'>;
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
    const annotated = await this.deps.annotations?.reply(turn, opening, this.deps.announce === true);
    if (annotated) return annotated.answer;
    const plan = await this.prepare(turn, request);
    let answer: ChatAnswer;
    try {
      const tools = await this.toolsFor(turn, plan);
      answer = await this.deps.engine.sendMessage(turn.conversation.id, this.toRequest(turn, plan, opening, tools), signal);
    } catch (error) {
      await this.settle(turn, plan, { ok: false, error });
      throw error;
    }
    // Outside the try: a settle that fails must not settle the same answer a second time as a failure.
    await this.settle(turn, plan, { ok: true, usage: answer.usage, latencyMs: answer.latencyMs, provider: answer.provider, model: answer.model, content: answer.message.content, messageId: answer.message.id, ...toolCallsOf(answer) });
    return answer;
  }

  async stream(turn: ChatTurn, request: ChatMessageRequest, signal?: AbortSignal, opening?: ConversationStart): Promise<AsyncIterable<ChatStreamEvent>> {
    const annotated = await this.deps.annotations?.reply(turn, opening, this.deps.announce === true);
    if (annotated) return annotatedStream(annotated);
    const plan = await this.prepare(turn, request);
    let events: AsyncIterable<ChatStreamEvent>;
    try {
      const tools = await this.toolsFor(turn, plan);
      events = await this.deps.engine.streamMessage(turn.conversation.id, this.toRequest(turn, plan, opening, tools), signal);
    } catch (error) {
      await this.settle(turn, plan, { ok: false, error });
      throw error;
    }
    const settle = (outcome: ChatOutcome) => this.settle(turn, plan, outcome);
    return (async function* () {
      let outcome: ChatOutcome = { ok: false };
      let partial = '';
      try {
        for await (const event of events) {
          if (event.type === 'chunk') partial += event.content;
          if (event.type === 'done') {
            outcome = { ok: true, usage: event.usage, latencyMs: event.latencyMs, provider: event.provider, model: event.model, content: event.fullResponse, messageId: event.messageId, ...toolCallsOf(event) };
          }
          yield event;
        }
      } finally {
        // A stream cut short after text was produced still cost tokens: count an estimate, so aborting
        // just before the end is no way around the quota.
        if (!outcome.ok && partial !== '') {
          outcome = { ok: true, interrupted: true, usage: estimateUsage(turn.content, partial), content: partial };
        }
        await settle(outcome);
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

  /** The turn's tools, with as many tool rounds as every policy allows (each round is a model call of its own). */
  private async toolsFor(turn: ChatTurn, plan: ChatPlan): Promise<TurnTools | undefined> {
    const tools = await this.deps.tools?.(turn.application.id, turn.ownerId);
    if (!tools) return undefined;
    let rounds = tools.settings.maxToolRounds;
    for (const policy of this.deps.policies) {
      if (policy.allowToolRounds) rounds = Math.min(rounds, await policy.allowToolRounds(turn, plan, rounds));
    }
    return rounds === tools.settings.maxToolRounds ? tools : { ...tools, settings: { ...tools.settings, maxToolRounds: Math.max(0, rounds) } };
  }

  private toRequest(turn: ChatTurn, plan: ChatPlan, opening?: ConversationStart, tools?: TurnTools): ChatMessageRequest {
    return {
      ...(opening ? { startConversation: opening } : {}),
      content: turn.content,
      provider: plan.provider,
      model: plan.model,
      settings: plan.settings,
      context: plan.context,
      apiKey: plan.apiKey,
      ...(plan.connection ? { connection: plan.connection } : {}),
      ...(plan.fallbackConnections?.length ? { fallbackConnections: plan.fallbackConnections } : {}),
      configVersionId: plan.configVersionId ?? turn.conversation.configVersionId,
      sources: plan.sources,
      ...(this.deps.announce ? { announce: { ownerId: turn.ownerId, source: turn.source } } : {}),
      ...(tools ? { tools } : {}),
      ...(turn.trace ? { trace: turn.trace } : {}),
    };
  }

  private async settle(turn: ChatTurn, plan: ChatPlan, outcome: ChatOutcome): Promise<void> {
    for (const policy of this.deps.policies) await policy.settle?.(turn, plan, outcome);
  }
}

const toolCallsOf = (answer: { toolCalls?: AnswerToolCall[] }): { toolCalls?: AnswerToolCall[] } => (answer.toolCalls?.length ? { toolCalls: answer.toolCalls } : {});
