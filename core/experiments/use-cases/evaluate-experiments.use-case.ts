import type { Experiment } from '../domain/experiment';
import { analyzeExperiment, type AnalysisDeps } from './analyze-experiment';
import { promoteWinner, recordDecision, rollBack, type DecisionDeps } from './experiment-decisions';

export const EVALUATE_EXPERIMENTS_JOB = 'experiments.evaluate';

/**
 * Evaluates an application's open A/B tests on their observations so far: switches off challengers whose
 * guardrail is clearly worse, records a decision once the sequential test reaches one, and promotes a
 * winner when the test is set to. Idempotent: each change is conditional on the state it moves from, so
 * a repeat (another instance, a retried job) finds it made and does nothing.
 */
export class EvaluateExperimentsUseCase {
  constructor(private readonly deps: DecisionDeps & AnalysisDeps) {}

  async execute(applicationId: string): Promise<void> {
    for (const experiment of await this.deps.experiments.listOpenByApplication(applicationId)) await this.evaluate(experiment);
  }

  private async evaluate(experiment: Experiment): Promise<void> {
    const found = await this.deps.configs.findWithOwner(experiment.configId);
    if (!found) return;
    const owner = { ownerId: found.ownerId, teamId: found.teamId ?? null };
    if (experiment.status === 'running') {
      const versions = await this.deps.versions.listByConfig(experiment.configId);
      const analysis = await analyzeExperiment(this.deps, experiment, found.config, versions);
      for (const breach of analysis.breaches) await rollBack(this.deps, experiment, owner, breach.versionId, breach.guardrail);
      if (analysis.breaches.length > 0) return this.evaluateAgain(experiment.configId);
      const { decision } = analysis;
      if (decision.outcome === 'running') return;
      await recordDecision(this.deps, experiment, owner, { status: decision.outcome, winnerArm: decision.outcome === 'winner' ? decision.arm : null });
      experiment = (await this.deps.experiments.findByConfig(experiment.configId)) ?? experiment;
    }
    if (experiment.status === 'winner' && experiment.autoPromote) await promoteWinner(this.deps, experiment, owner, true);
  }

  /** After a rollback the remaining arms are judged on the state it left. */
  private async evaluateAgain(configId: string): Promise<void> {
    const experiment = await this.deps.experiments.findByConfig(configId);
    if (experiment && experiment.status === 'running') await this.evaluate(experiment);
  }
}
