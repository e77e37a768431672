import { resolveModelSettings } from '../../ai/domain/model-settings';
import { isProviderId } from '../../ai/domain/provider-id';
import type { Application } from '../../applications/domain/application';
import type { ChatOutcome, ChatPlan, ChatPolicy, ChatTurn } from '../../conversations/ports/chat-policy.port';
import type { PromptTemplateRepository } from '../../prompts/ports/prompt-template-repository.port';
import { isAppError, type ErrorKind } from '../../shared/errors';
import type { AnswerOutcome, ConfigVersion } from '../domain/config-version';
import type { ModelConfig } from '../domain/model-config';
import { effectiveSystemPrompt } from '../domain/precedence';
import { pickVersion } from '../domain/traffic';
import type { ConfigVersionRepository } from '../ports/config-version-repository.port';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';

export interface ModelConfigPolicyDeps {
  configs: ModelConfigRepository;
  versions: ConfigVersionRepository;
  templates: PromptTemplateRepository;
  /** Uniform in [0, 1); replaceable so tests can steer the A/B choice. */
  random?: () => number;
  /** Metrics are bookkeeping: a failure to record them is reported here and never fails the answer. */
  onMetricsError?: (error: unknown) => void;
}

/**
 * The application's model configuration applied to every chat turn: a new conversation is assigned an
 * A/B version by weighted choice (kept for its life); each turn takes provider, model and settings from
 * that version or else the default config, unless the request chose its own provider or model; the
 * system prompt is the config's, else the application's default template; each answer updates the
 * version's metrics, or, for the config's own share while versions are active, the control arm's.
 */
export class ModelConfigPolicy implements ChatPolicy {
  readonly name = 'model-config';
  private readonly random: () => number;
  // The config whose own share of the traffic (the A/B control arm) a turn belongs to, until settled.
  private readonly controlOf = new WeakMap<ChatPlan, string>();

  constructor(private readonly deps: ModelConfigPolicyDeps) {
    this.random = deps.random ?? Math.random;
  }

  async onConversationCreate(application: Application): Promise<{ configVersionId: string | null }> {
    const shares = await this.deps.versions.activeSharesOfDefault(application.id);
    return { configVersionId: shares.length ? pickVersion(shares, this.random()) : null };
  }

  async prepare(turn: ChatTurn, plan: ChatPlan): Promise<void> {
    if (turn.draft) return this.prepareDraft(turn, plan, turn.draft);
    const version = await this.assignedVersion(turn);
    const source: ConfigVersion | ModelConfig | null = version ?? (await this.deps.configs.findDefault(turn.application.id));
    // A turn the default config answers while it has active versions is the control arm of the test;
    // without versions there is nothing to compare, and no metric to write.
    if (source && !version && (await this.deps.versions.activeSharesOfDefault(turn.application.id)).length > 0) this.controlOf.set(plan, source.id);
    const requestChoseModel = plan.provider !== undefined || plan.model !== undefined;
    if (source && !requestChoseModel) {
      const { systemPrompt: _chosenBelow, ...configured } = source.settings;
      plan.provider = source.provider;
      plan.model = source.modelId;
      plan.settings = { ...configured, ...plan.settings };
    }
    if (plan.settings.systemPrompt === undefined) {
      const chosen = source ? { origin: version ? ('ab_version' as const) : ('model_config' as const), systemPrompt: source.settings.systemPrompt } : null;
      const template = chosen?.systemPrompt ? null : await this.deps.templates.findDefault(turn.application.id);
      const { systemPrompt } = effectiveSystemPrompt(chosen, template);
      if (systemPrompt) plan.settings.systemPrompt = systemPrompt;
    }
    // Settings a request adds to the config's are checked here, so a bad value is refused before the
    // engine is called and is never counted as a failed answer of the version.
    // A connection's name is checked by the connections policy and the engine (docs/connections.md).
    if (plan.provider !== undefined && isProviderId(plan.provider)) resolveModelSettings(plan.provider, plan.model, plan.settings);
  }

  /**
   * A studio debug turn (docs/studio.md): the unpublished draft replaces the default config and any A/B
   * version for this one turn, by the same precedence rule; nothing is counted in the A/B metrics.
   */
  private async prepareDraft(turn: ChatTurn, plan: ChatPlan, draft: NonNullable<ChatTurn['draft']>): Promise<void> {
    const { systemPrompt: instructions, ...settings } = draft.settings;
    plan.provider = draft.provider;
    plan.model = draft.model;
    plan.configVersionId = null;
    plan.settings = { ...settings };
    const template = instructions ? null : await this.deps.templates.findDefault(turn.application.id);
    const { systemPrompt } = effectiveSystemPrompt({ origin: 'studio_draft', systemPrompt: typeof instructions === 'string' ? instructions : undefined }, template);
    if (systemPrompt) plan.settings.systemPrompt = systemPrompt;
    if (isProviderId(plan.provider)) resolveModelSettings(plan.provider, plan.model, plan.settings);
  }

  async settle(turn: ChatTurn, plan: ChatPlan, outcome: ChatOutcome): Promise<void> {
    if (turn.draft) return;
    // The engine stores this same id on the answer, so metrics and stored messages agree.
    const versionId = plan.configVersionId ?? turn.conversation.configVersionId;
    const controlId = this.controlOf.get(plan);
    this.controlOf.delete(plan);
    if ((!versionId && !controlId) || (!outcome.ok && refusedBeforeProvider(outcome.error))) return;
    const answer: AnswerOutcome = outcome.ok ? { ok: true, latencyMs: outcome.latencyMs ?? 0, totalTokens: outcome.usage?.totalTokens ?? 0 } : { ok: false };
    try {
      if (versionId) await this.deps.versions.recordOutcome(versionId, answer);
      else await this.deps.configs.recordControlOutcome(controlId!, answer);
    } catch (error) {
      this.deps.onMetricsError?.(error);
    }
  }

  /** The conversation's version while it exists; a deleted version falls back to the default config. */
  private async assignedVersion(turn: ChatTurn): Promise<ConfigVersion | null> {
    const id = turn.conversation.configVersionId;
    if (!id) return null;
    const version = await this.deps.versions.findById(id);
    return version && version.applicationId === turn.application.id ? version : null;
  }
}

/** Errors that stop a turn before any provider is asked: nothing is stored, so nothing is counted. */
const REFUSALS: ReadonlySet<ErrorKind> = new Set(['validation', 'not_found', 'payment_required', 'forbidden', 'unauthorized', 'conflict', 'unavailable']);

/**
 * A failure counts as a failed request of the version only when the provider was asked (the engine
 * then stores a failed or interrupted answer). A provider's own 400 is an upstream failure, also when a
 * remote engine relays it.
 */
const refusedBeforeProvider = (error: unknown): boolean => isAppError(error) && REFUSALS.has(error.kind);
