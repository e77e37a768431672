import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import type { ProviderId } from '../../ai/domain/provider-id';
import type { Experiment, Goal, Guardrail, RolledBackArm } from '../domain/experiment';

export interface ExperimentSettings {
  goal: Goal;
  evaluatorId: string | null;
  sampleRate: number;
  samplesPerHour: number;
  minimumEffect: number;
  significance: number;
  autoPromote: boolean;
  guardrails: Guardrail[];
}

/** What a promotion writes: the winning setup (null when the control won and keeps its own). */
export interface Promotion {
  winner: { provider: ProviderId; modelId: string; settings: ModelSettings } | null;
}

/**
 * The A/B test of each model config. Changes of state are conditional single statements (a decision is
 * recorded only while the test runs, a promotion only once), so evaluations running at the same time on
 * several instances record each decision once; `true` means this call made the change.
 */
export interface ExperimentRepository {
  findByConfig(configId: string): Promise<Experiment | null>;
  /** The application's tests that are still running or decided but not promoted. */
  listOpenByApplication(applicationId: string): Promise<Experiment[]>;
  /** Ids of applications with an open test (the periodic sweep). */
  applicationsWithOpenTests(limit: number): Promise<string[]>;
  /** Creates or changes the config's test; `restart` starts it anew from `now` (decision and rollbacks cleared). */
  save(configId: string, applicationId: string, settings: ExperimentSettings, restart: boolean, now: Date): Promise<Experiment>;
  /** Records a decision of a running test; false when it was no longer running. */
  recordDecision(id: string, decision: { status: 'winner' | 'no_difference'; winnerArm: string | null }, now: Date): Promise<boolean>;
  /**
   * Ends a decided test: the config takes the winner's provider, model and settings (unless the control
   * won), every version of the config is switched off, and the test is `promoted`. False when it had been promoted.
   */
  promote(id: string, promotion: Promotion, now: Date): Promise<boolean>;
  /** Switches a version off and notes why; false when it was off already. */
  rollBack(id: string, arm: RolledBackArm): Promise<boolean>;
}
