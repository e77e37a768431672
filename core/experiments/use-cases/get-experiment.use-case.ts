import type { TeamRoleLookup } from '../../access/access-policy';
import type { ConfigVersionRepository } from '../../model-configs/ports/config-version-repository.port';
import type { ModelConfigRepository } from '../../model-configs/ports/model-config-repository.port';
import { findOwnedModelConfig } from '../../model-configs/use-cases/find-owned-model-config';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import type { ExperimentRepository } from '../ports/experiment-repository.port';
import { analyzeExperiment, type AnalysisDeps } from './analyze-experiment';
import { toExperimentView, type ExperimentView } from './experiment-view';

export type ExperimentReadDeps = AnalysisDeps & {
  experiments: ExperimentRepository;
  configs: ModelConfigRepository;
  versions: ConfigVersionRepository;
  teams?: TeamRoleLookup;
};

/** The decision view of a model config's A/B test; 404 when the config has no test (or is not the caller's). */
export class GetExperimentUseCase {
  constructor(private readonly deps: ExperimentReadDeps) {}

  async execute(configId: string, actor: Actor): Promise<ExperimentView> {
    const config = await findOwnedModelConfig(this.deps.configs, configId, actor, 'read', this.deps.teams ?? null);
    const experiment = await this.deps.experiments.findByConfig(config.id);
    if (!experiment) throw new NotFoundError('A/B test', 'This model config has no A/B test yet');
    const versions = await this.deps.versions.listByConfig(config.id);
    return toExperimentView(experiment, await analyzeExperiment(this.deps, experiment, config, versions));
  }
}
