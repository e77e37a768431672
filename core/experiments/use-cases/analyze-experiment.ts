import type { ConfigVersion } from '../../model-configs/domain/config-version';
import type { ModelConfig } from '../../model-configs/domain/model-config';
import { toPercent, FULL_TRAFFIC } from '../../model-configs/domain/traffic';
import { breachedGuardrail, decide, type GuardrailSample } from '../domain/decide';
import { CONTROL_ARM, GOAL_MODELS, type ArmResult, type Decision, type Experiment, type Guardrail } from '../domain/experiment';
import { expectedObservationsPerArm, meanOf, NO_MOMENTS, varianceOf, type Moments } from '../domain/sequential-test';
import type { ArmObservations, LiveAnswerScores, ObservationScope } from '../ports/arm-observations.port';

export interface AnalysisDeps {
  observations: ArmObservations;
  scores?: LiveAnswerScores | null;
}

export interface ArmView extends ArmResult {
  label: string;
  isActive: boolean;
  trafficPercent: number;
  /** The guardrail this arm breached (it was switched off), if any. */
  rolledBack: Guardrail | null;
}

export interface Analysis {
  arms: ArmView[];
  decision: Decision;
  /** Challengers clearly worse than the control on a guardrail, not switched off yet. */
  breaches: Array<{ versionId: string; guardrail: Guardrail }>;
  /** Observations per arm at which a difference of the minimum effect is typically decided. */
  expectedObservations: number | null;
}

/**
 * Challengers of a test: while it runs, the config's versions that take part (active now, or switched off by
 * a guardrail); once decided, every version (a promotion switches them all off), so the record stays readable.
 */
const challengersOf = (experiment: Experiment, versions: ConfigVersion[]): ConfigVersion[] =>
  experiment.status === 'running' ? versions.filter((v) => v.isActive || experiment.rolledBack.some((r) => r.versionId === v.id)) : versions;

async function goalMoments(deps: AnalysisDeps, experiment: Experiment, scope: ObservationScope): Promise<Map<string, Moments>> {
  switch (experiment.goal) {
    case 'rating':
      return deps.observations.ratings(scope, false);
    case 'thumbs_up_rate':
      return deps.observations.ratings(scope, true);
    case 'cost_per_conversation':
      return deps.observations.costPerConversation(scope);
    case 'evaluator_score':
      return deps.scores && experiment.evaluatorId ? deps.scores.scores(scope, experiment.evaluatorId) : new Map();
  }
}

/**
 * Reads a test's observations since it started and runs the sequential test on them: each arm's estimate,
 * each challenger against the control, the decision, and the guardrails breached. Rolled-back arms stay
 * in the comparison (what they showed is kept) but can neither win nor be rolled back twice.
 */
export async function analyzeExperiment(deps: AnalysisDeps, experiment: Experiment, config: ModelConfig, versions: ConfigVersion[]): Promise<Analysis> {
  const challengers = challengersOf(experiment, versions);
  const scope: ObservationScope = {
    applicationId: config.applicationId,
    control: { provider: config.provider, modelId: config.modelId },
    versionIds: challengers.map((v) => v.id),
    since: experiment.startedAt,
  };
  const needGuardrails = experiment.guardrails.length > 0 && challengers.length > 0;
  const [moments, guards] = await Promise.all([goalMoments(deps, experiment, scope), needGuardrails ? deps.observations.guardrails(scope) : Promise.resolve(new Map<string, GuardrailSample>())]);
  const model = GOAL_MODELS[experiment.goal];
  const rolledBack = new Map(experiment.rolledBack.map((r) => [r.versionId, r.guardrail]));
  const contenders = challengers.filter((v) => !rolledBack.has(v.id));
  const { arms, decision } = decide({
    model,
    minimumEffect: experiment.minimumEffect,
    significance: experiment.significance,
    control: moments.get(CONTROL_ARM) ?? NO_MOMENTS,
    challengers: [...contenders, ...challengers.filter((v) => rolledBack.has(v.id))].map((v) => ({ arm: v.id, moments: moments.get(v.id) ?? NO_MOMENTS })),
  });
  // A rolled-back arm is compared for the record, but the decision is among the arms still in the test.
  const inTest = new Set([CONTROL_ARM, ...contenders.map((v) => v.id)]);
  const decided = contenders.length === challengers.length ? decision : decide({
    model,
    minimumEffect: experiment.minimumEffect,
    significance: experiment.significance,
    control: moments.get(CONTROL_ARM) ?? NO_MOMENTS,
    challengers: contenders.map((v) => ({ arm: v.id, moments: moments.get(v.id) ?? NO_MOMENTS })),
  }).decision;
  const taken = versions.filter((v) => v.isActive).reduce((sum, v) => sum + v.trafficShare, 0);
  const byId = new Map(versions.map((v) => [v.id, v]));
  const views: ArmView[] = arms.map((a) => {
    const version = byId.get(a.arm);
    return {
      ...a,
      label: version ? version.label : config.name,
      isActive: version ? version.isActive : true,
      trafficPercent: version ? (version.isActive ? toPercent(version.trafficShare) : 0) : toPercent(Math.max(0, FULL_TRAFFIC - taken)),
      rolledBack: rolledBack.get(a.arm) ?? null,
    };
  });
  const control = guards.get(CONTROL_ARM);
  const breaches: Analysis['breaches'] = [];
  if (control) {
    for (const v of contenders) {
      const sample = guards.get(v.id);
      const guardrail = sample ? breachedGuardrail(experiment.guardrails, control, sample, experiment.significance, challengers.length) : null;
      if (guardrail && inTest.has(v.id)) breaches.push({ versionId: v.id, guardrail });
    }
  }
  return { arms: views, decision: decided, breaches, expectedObservations: plannedObservations(experiment, moments.get(CONTROL_ARM) ?? NO_MOMENTS) };
}

/** The planning figure: from the control's spread so far, or the bound of a bounded goal before any data. */
function plannedObservations(experiment: Experiment, control: Moments): number | null {
  const model = GOAL_MODELS[experiment.goal];
  const variance = control.n >= 2 ? varianceOf(control, model.priorVariance) : model.priorVariance;
  if (variance === null || !(variance > 0) || meanOf(control) === null && model.priorVariance === null) return null;
  const n = expectedObservationsPerArm(experiment.minimumEffect, Math.sqrt(variance), experiment.minimumEffect ** 2, experiment.significance);
  return Number.isFinite(n) ? n : null;
}
