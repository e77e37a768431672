import {
  CONTROL_ARM,
  GUARDRAIL_COST_SHARE,
  GUARDRAIL_ERROR_EFFECT,
  GUARDRAIL_MODELS,
  MINIMUM_OBSERVATIONS,
  type ArmResult,
  type Decision,
  type Guardrail,
} from './experiment';
import { armInterval, compareArms, meanOf, type MetricModel, type Moments } from './sequential-test';

export interface ArmSample {
  arm: string;
  moments: Moments;
}

export interface DecisionInput {
  model: MetricModel;
  minimumEffect: number;
  significance: number;
  control: Moments;
  challengers: ArmSample[];
}

/**
 * Each challenger is compared with the control at significance / (number of challengers) (Bonferroni),
 * so the chance of any false decision in the test stays at most the significance level. A challenger
 * clearly better wins (the best of them when several are); the control wins when every challenger is
 * clearly worse; "no difference" when every challenger is equivalent or worse and at least one is
 * equivalent; otherwise the test keeps running.
 */
export function decide(input: DecisionInput): { arms: ArmResult[]; decision: Decision } {
  const tau2 = input.minimumEffect * input.minimumEffect;
  const comparisonAlpha = input.significance / Math.max(1, input.challengers.length);
  const options = { tau2, alpha: comparisonAlpha, minimumEffect: input.minimumEffect, minimumObservations: MINIMUM_OBSERVATIONS };
  const arms: ArmResult[] = [
    { arm: CONTROL_ARM, observations: input.control.n, estimate: armInterval(input.control, input.model, tau2, input.significance), comparison: null },
    ...input.challengers.map((c) => ({
      arm: c.arm,
      observations: c.moments.n,
      estimate: armInterval(c.moments, input.model, tau2, input.significance),
      comparison: compareArms(input.control, c.moments, input.model, options),
    })),
  ];
  return { arms, decision: decisionOf(arms.slice(1), input.model) };
}

function decisionOf(challengers: ArmResult[], model: MetricModel): Decision {
  if (challengers.length === 0) return { outcome: 'running' };
  const verdicts = challengers.map((c) => c.comparison?.verdict ?? 'undecided');
  const better = challengers.filter((c) => c.comparison?.verdict === 'better');
  if (better.length > 0) {
    const sign = model.better === 'higher' ? 1 : -1;
    const best = better.reduce((a, b) => (sign * b.comparison!.estimate > sign * a.comparison!.estimate ? b : a));
    return { outcome: 'winner', arm: best.arm };
  }
  if (verdicts.every((v) => v === 'worse')) return { outcome: 'winner', arm: CONTROL_ARM };
  if (verdicts.every((v) => v === 'worse' || v === 'equivalent')) return { outcome: 'no_difference' };
  return { outcome: 'running' };
}

export interface GuardrailSample {
  errors: Moments;
  cost: Moments;
}

/**
 * Whether a challenger is clearly worse than the control on a guardrail: the same sequential test, one
 * sided, at the test's significance shared among the challengers. The mixture looks for an error rate
 * 2 points higher, or a cost a fifth above the control's.
 */
export function breachedGuardrail(
  guardrails: readonly Guardrail[],
  control: GuardrailSample,
  arm: GuardrailSample,
  significance: number,
  challengers: number,
): Guardrail | null {
  const alpha = significance / Math.max(1, challengers);
  for (const guardrail of guardrails) {
    const [c, a] = guardrail === 'error_rate' ? [control.errors, arm.errors] : [control.cost, arm.cost];
    const effect = guardrail === 'error_rate' ? GUARDRAIL_ERROR_EFFECT : GUARDRAIL_COST_SHARE * (meanOf(c) ?? 0);
    if (!(effect > 0)) continue;
    const comparison = compareArms(c, a, GUARDRAIL_MODELS[guardrail], { tau2: effect * effect, alpha, minimumEffect: effect, minimumObservations: MINIMUM_OBSERVATIONS });
    if (comparison?.verdict === 'worse') return guardrail;
  }
  return null;
}
