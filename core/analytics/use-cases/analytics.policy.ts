import type { ChatOutcome, ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { ConversationSource } from '../../conversations/domain/conversation';
import { UpstreamError, UpstreamTimeoutError } from '../../shared/errors';
import type { KeyKind } from '../domain/analytics';
import type { AnalyticsRecorder } from './analytics-recorder';

/** A settled turn as the metrics and the provider-reachability record see it. */
export interface TurnObservation {
  source: ConversationSource;
  provider: string;
  model: string;
  ok: boolean;
  interrupted: boolean;
  latencyMs?: number;
  /** The provider failed the call (an error or time-out of its own, not a refused key or a refusal of ours). */
  providerFailed: boolean;
}

export type TurnObserver = (turn: TurnObservation) => void;

/** True when the turn failed because the provider did: its error or time-out, or a stream that ended without an answer. */
export function providerFailed(outcome: ChatOutcome): boolean {
  if (outcome.ok) return false;
  if (outcome.error === undefined) return true;
  if (outcome.error instanceof UpstreamTimeoutError) return true;
  return outcome.error instanceof UpstreamError && (outcome.error.status === 502 || outcome.error.status === 429);
}

/**
 * Counts every turn that reached the engine (it runs last, so its `settle` is only called for turns
 * every other policy admitted): `message_sent` for the user's message, then `message_received` with
 * the tokens of the answer (whole or interrupted), or `error`. In memory, flushed in batches.
 */
export class AnalyticsChatPolicy implements ChatPolicy {
  readonly name = 'analytics';

  constructor(private readonly deps: { recorder: AnalyticsRecorder; observers?: TurnObserver[] }) {}

  async prepare(): Promise<void> {}

  async settle(turn: ChatTurn, plan: ChatPlan, outcome: ChatOutcome): Promise<void> {
    // An evaluation's turns are the owner testing, not traffic (docs/evaluations.md).
    if (turn.purpose === 'evaluation') return;
    const provider = outcome.provider ?? plan.provider ?? '';
    const model = outcome.model ?? plan.model ?? '';
    const keyKind: KeyKind = plan.usesOwnKey === true ? 'own' : plan.usesOwnKey === false ? 'platform' : 'none';
    const slice = { applicationId: turn.application.id, source: turn.source, provider, model, keyKind };
    this.deps.recorder.record({ type: 'message_sent', ...slice });
    if (outcome.ok) {
      this.deps.recorder.record({
        type: 'message_received',
        ...slice,
        promptTokens: outcome.usage?.promptTokens ?? 0,
        completionTokens: outcome.usage?.completionTokens ?? 0,
      });
    } else {
      this.deps.recorder.record({ type: 'error', ...slice });
    }
    const observation: TurnObservation = {
      source: turn.source,
      provider,
      model,
      ok: outcome.ok,
      interrupted: outcome.interrupted === true,
      latencyMs: outcome.latencyMs,
      providerFailed: providerFailed(outcome),
    };
    for (const observe of this.deps.observers ?? []) observe(observation);
  }
}
