import { randomUUID } from 'node:crypto';
import type { PriceTable } from '../../ai/domain/model-catalog';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { answerCost, defaultPrices } from '../../conversations/domain/answer-cost';
import { titleFrom, type Conversation } from '../../conversations/domain/conversation';
import type { ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { ConversationRepository } from '../../conversations/ports/conversation-repository.port';
import type { ChatTurnRunner } from '../../conversations/use-cases/run-chat-turn';
import { renderTemplate } from '../../prompts/domain/placeholders';
import { isAppError } from '../../shared/errors';
import type { DatasetItem } from '../domain/dataset';
import type { EvaluatorSpec, Observed, Score } from '../domain/evaluator';
import type { EvaluationResult, EvaluationRun, ResultOutcome, Target } from '../domain/run';
import type { JsonSchemaValidator, JudgeModel, RegexEngine, SimilarityEmbedder } from '../ports/evaluation-engines.port';
import { describeError as describe, scoreAnswer } from './score-answer';
import type { DatasetRepository, EvaluationRunRepository } from '../ports/evaluation-repository.port';

export interface RunExecutorDeps {
  runs: EvaluationRunRepository;
  datasets: DatasetRepository;
  applications: ApplicationRepository;
  conversations: ConversationRepository;
  runner: ChatTurnRunner;
  regex: RegexEngine;
  schemas: JsonSchemaValidator;
  judge?: JudgeModel;
  embedder?: SimilarityEmbedder;
  prices?: PriceTable;
}

/** Conversations a run opens are titled so in the logs, where the owner may look at an answer's trace. */
export const EVALUATION_TITLE_PREFIX = 'Evaluation: ';
/** How long a claim on one item lasts: longer than any one answer and its scoring. */
const DEFAULT_LEASE_MS = 10 * 60_000;
/** Claims of one item past which it is failed rather than answered again (its process kept dying on it). */
const MAX_ATTEMPTS = 3;

/** Errors after which the rest of the run cannot go on (the plan refuses, or a quota is used up). */
const STOPS_THE_RUN = new Set(['payment_required', 'rate_limited']);

/**
 * Answers a run's items, each claimed atomically so it is answered once, `concurrency` at a time, through the
 * application's own chat path (policies: keys and quota, knowledge, tools) with the target in place of its model
 * config, then scores each answer. A stopped process leaves unclaimed items pending and claimed ones to lapse; the
 * next process's sweep resumes the run.
 */
export class EvaluationRunExecutor {
  private stopping = false;
  private readonly controller = new AbortController();

  constructor(
    private readonly deps: RunExecutorDeps,
    private readonly options: { leaseMs?: number } = {},
  ) {}

  /** Stops claiming items; answers under way finish. */
  stop(): void {
    this.stopping = true;
  }

  async execute(runId: string): Promise<void> {
    const run = await this.deps.runs.findById(runId);
    if (!run || run.status !== 'running' || this.stopping) return;
    const items = new Map((await this.deps.datasets.items(run.datasetId, run.datasetVersion)).map((i) => [i.id, i]));
    await Promise.all(Array.from({ length: run.concurrency }, () => this.work(run, items)));
    if (!this.stopping) await this.deps.runs.completeIfDone(run.id);
  }

  private async work(run: EvaluationRun, items: Map<string, DatasetItem>): Promise<void> {
    while (!this.stopping) {
      if ((await this.deps.runs.status(run.id)) !== 'running') return;
      const result = await this.deps.runs.claimNext(run.id, this.options.leaseMs ?? DEFAULT_LEASE_MS);
      if (!result) return;
      const item = items.get(result.itemId);
      const target = run.targets[result.targetIndex];
      let outcome: ResultOutcome & { stop?: boolean };
      if (!item || !target) outcome = { ok: false, error: 'The item is no longer in the dataset' };
      else if (result.attempts > MAX_ATTEMPTS) outcome = { ok: false, error: 'Answering this item was interrupted too many times' };
      else outcome = await this.answerAndScore(run, target, item);
      await this.deps.runs.finishResult(result.id, outcome);
      if (!outcome.ok && outcome.stop) {
        await this.deps.runs.end(run.id, 'failed', outcome.error);
        return;
      }
    }
  }

  private async answerAndScore(run: EvaluationRun, target: Target, item: DatasetItem): Promise<ResultOutcome & { stop?: boolean }> {
    let answered: Awaited<ReturnType<EvaluationRunExecutor['answer']>>;
    try {
      answered = await this.answer(run, target, item);
    } catch (error) {
      return { ok: false, error: describe(error), stop: isAppError(error) && STOPS_THE_RUN.has(error.kind) };
    }
    const observed: Observed = { answer: answered.content, expected: item.expected, latencyMs: answered.latencyMs, totalTokens: answered.usage.totalTokens, cost: answered.cost };
    const scores: Score[] = [];
    for (const evaluator of run.evaluators) scores.push(await this.score(run, evaluator, item, observed));
    return {
      ok: true,
      answer: answered.content,
      scores,
      passed: scores.every((s) => s.passed),
      usage: answered.usage,
      cost: answered.cost,
      latencyMs: answered.latencyMs,
      conversationId: answered.conversationId,
      messageId: answered.messageId,
    };
  }

  /** One turn on the target's application, marked as an evaluation (analytics and A/B metrics do not count it). */
  private async answer(run: EvaluationRun, target: Target, item: DatasetItem) {
    const application = await this.deps.applications.findById(target.applicationId);
    if (!application) throw new Error('The application of this target no longer exists');
    const settings = { ...target.settings };
    if (target.template && typeof settings.systemPrompt === 'string') {
      settings.systemPrompt = renderTemplate(settings.systemPrompt, { ...target.defaults, ...(item.input.variables ?? {}) });
    }
    const now = new Date();
    const title = `${EVALUATION_TITLE_PREFIX}${titleFrom(run.name)}`.slice(0, 80);
    const start = { applicationId: application.id, title, source: 'dashboard' as const, apiKeyId: null, configVersionId: null };
    let conversation: Conversation = { id: randomUUID(), ...start, status: 'active', createdAt: now, updatedAt: now };
    let opening: typeof start | undefined = start;
    if (item.input.history?.length) {
      // The history is stored as the conversation's earlier turns, so the target reads it as its own.
      conversation = await this.deps.conversations.create(start);
      for (const turn of item.input.history) {
        await this.deps.conversations.addMessage({ conversationId: conversation.id, role: turn.role, content: turn.content, status: 'complete' });
      }
      opening = undefined;
    }
    const turn: ChatTurn = {
      ownerId: application.ownerId,
      application,
      conversation,
      content: item.input.message,
      source: 'dashboard',
      purpose: 'evaluation',
      draft: { provider: target.provider, model: target.model, settings },
    };
    const answer = await this.deps.runner.send(turn, { content: item.input.message, settings: {} }, this.controller.signal, opening);
    return {
      content: answer.message.content,
      usage: answer.usage,
      latencyMs: answer.latencyMs,
      cost: answerCost(this.deps.prices ?? defaultPrices(), answer),
      conversationId: answer.conversationId,
      messageId: answer.message.id,
    };
  }

  private score(run: EvaluationRun, evaluator: EvaluatorSpec, item: DatasetItem, o: Observed): Promise<Score> {
    return scoreAnswer(this.deps, evaluator, { applicationId: run.applicationId, question: item.input.message }, o, this.controller.signal);
  }
}

export type { EvaluationResult };
