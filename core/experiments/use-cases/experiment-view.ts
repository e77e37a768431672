import type { ConfigVersion } from '../../model-configs/domain/config-version';
import type { ModelConfig } from '../../model-configs/domain/model-config';
import { CONTROL_ARM, type Experiment, type Guardrail } from '../domain/experiment';
import type { Interval, Verdict } from '../domain/sequential-test';
import type { Analysis } from './analyze-experiment';

const round = (n: number): number => Math.round(n * 1e6) / 1e6;
const rounded = (i: Interval | null) => i && { estimate: round(i.estimate), low: round(i.low), high: round(i.high) };

export interface ExperimentArmView {
  arm: string;
  isControl: boolean;
  label: string;
  isActive: boolean;
  trafficPercent: number;
  observations: number;
  estimate: { estimate: number; low: number; high: number } | null;
  difference: { estimate: number; low: number; high: number; verdict: Verdict } | null;
  rolledBack: Guardrail | null;
}

/** The decision view of a model config's A/B test (docs/ab-tests.md). */
export interface ExperimentView
  extends Pick<Experiment, 'id' | 'configId' | 'applicationId' | 'goal' | 'evaluatorId' | 'sampleRate' | 'samplesPerHour' | 'minimumEffect' | 'significance' | 'autoPromote' | 'guardrails' | 'status'> {
  /** What the observations say now: `running`, `winner` or `no_difference` (the recorded one once decided). */
  decision: 'running' | 'winner' | 'no_difference';
  winner: string | null;
  startedAt: string;
  decidedAt: string | null;
  promotedAt: string | null;
  expectedObservations: number | null;
  arms: ExperimentArmView[];
}

export function toExperimentView(experiment: Experiment, analysis: Analysis): ExperimentView {
  const recorded = experiment.status !== 'running';
  const decision = recorded ? (experiment.status === 'no_difference' ? 'no_difference' : 'winner') : analysis.decision.outcome;
  const winner = recorded ? experiment.winnerArm : analysis.decision.outcome === 'winner' ? analysis.decision.arm : null;
  return {
    id: experiment.id,
    configId: experiment.configId,
    applicationId: experiment.applicationId,
    goal: experiment.goal,
    evaluatorId: experiment.evaluatorId,
    sampleRate: experiment.sampleRate,
    samplesPerHour: experiment.samplesPerHour,
    minimumEffect: experiment.minimumEffect,
    significance: experiment.significance,
    autoPromote: experiment.autoPromote,
    guardrails: experiment.guardrails,
    status: experiment.status,
    decision: experiment.status === 'no_difference' || (decision === 'winner' && winner === null) ? 'no_difference' : decision,
    winner,
    startedAt: experiment.startedAt.toISOString(),
    decidedAt: experiment.decidedAt?.toISOString() ?? null,
    promotedAt: experiment.promotedAt?.toISOString() ?? null,
    expectedObservations: analysis.expectedObservations,
    arms: analysis.arms.map((a) => ({
      arm: a.arm,
      isControl: a.arm === CONTROL_ARM,
      label: a.label,
      isActive: a.isActive,
      trafficPercent: a.trafficPercent,
      observations: a.observations,
      estimate: rounded(a.estimate),
      difference: a.comparison && { ...rounded(a.comparison)!, verdict: a.comparison.verdict },
      rolledBack: a.rolledBack,
    })),
  };
}

/** The setup a promotion gives the config: the winning version's, or none when the control won. */
export function winningSetup(winnerArm: string, config: ModelConfig, versions: ConfigVersion[]) {
  if (winnerArm === CONTROL_ARM) return null;
  const v = versions.find((x) => x.id === winnerArm);
  return v ? { provider: v.provider, modelId: v.modelId, settings: v.settings } : { provider: config.provider, modelId: config.modelId, settings: config.settings };
}
