import type { TeamRoleLookup } from '../../access/access-policy';
import { findOwnedModelConfig } from '../../model-configs/use-cases/find-owned-model-config';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError } from '../../shared/errors';
import { analyzeExperiment, type AnalysisDeps } from './analyze-experiment';
import { promoteWinner, type DecisionDeps } from './experiment-decisions';
import { toExperimentView, type ExperimentView } from './experiment-view';

/**
 * Promotes the winner of a decided test in one action: the config answers with the winning setup (its
 * provider, model and settings), every version is switched off, and the test ends. 409 before a winner.
 */
export class PromoteExperimentUseCase {
  constructor(private readonly deps: DecisionDeps & AnalysisDeps & { teams?: TeamRoleLookup }) {}

  async execute(configId: string, actor: Actor): Promise<ExperimentView> {
    await findOwnedModelConfig(this.deps.configs, configId, actor, 'write', this.deps.teams ?? null);
    const found = (await this.deps.configs.findWithOwner(configId))!;
    const experiment = await this.deps.experiments.findByConfig(found.config.id);
    if (!experiment) throw new NotFoundError('A/B test', 'This model config has no A/B test yet');
    if (experiment.status === 'promoted') throw new ConflictError('The winner of this A/B test has been promoted already');
    if (experiment.status !== 'winner') throw new ConflictError('This A/B test has no winner to promote yet');
    await promoteWinner(this.deps, experiment, { ownerId: found.ownerId, teamId: found.teamId ?? null }, false);
    const after = (await this.deps.experiments.findByConfig(found.config.id))!;
    const config = (await this.deps.configs.findWithOwner(configId))!.config;
    return toExperimentView(after, await analyzeExperiment(this.deps, after, config, await this.deps.versions.listByConfig(config.id)));
  }
}
