import type { Actor } from '../../shared/actor';
import { answeredCount, toMetrics, type ConfigVersionView, type VersionMetrics } from '../domain/config-version';
import { FULL_TRAFFIC, toPercent } from '../domain/traffic';
import type { ModelConfigRepository } from '../ports/model-config-repository.port';
import { findOwnedModelConfig } from './find-owned-model-config';
import { versionViews, type VersionDeps } from './list-config-versions.use-case';

/** The control arm: the config itself, with the traffic its active versions leave it. */
export interface ControlArmView {
  configId: string;
  name: string;
  provider: ConfigVersionView['provider'];
  modelId: string;
  isDefault: boolean;
  trafficPercent: number;
  metrics: VersionMetrics;
}

export interface ConfigComparisonView {
  control: ControlArmView;
  versions: ConfigVersionView[];
}

/**
 * An A/B test at a glance: the config's own share of the traffic (the control) beside its versions,
 * each with the same metrics, so the arms can be compared.
 */
export class CompareConfigVersionsUseCase {
  constructor(
    private readonly deps: VersionDeps & {
      configs: ModelConfigRepository;
      /** When the config's A/B test started (the experiments area); the control's rating counts answers from then on. */
      controlSince?: (configId: string) => Promise<Date | null>;
    },
  ) {}

  async execute(configId: string, actor: Actor): Promise<ConfigComparisonView> {
    const config = await findOwnedModelConfig(this.deps.configs, configId, actor, 'read', this.deps.teams ?? null);
    const since = (await this.deps.controlSince?.(config.id)) ?? null;
    const [versions, counters, rating] = await Promise.all([
      this.deps.versions.listByConfig(config.id),
      this.deps.configs.controlCounters(config.id),
      this.deps.ratings.averageOfControl(config, since),
    ]);
    const taken = versions.filter((v) => v.isActive).reduce((sum, v) => sum + v.trafficShare, 0);
    return {
      control: {
        configId: config.id,
        name: config.name,
        provider: config.provider,
        modelId: config.modelId,
        isDefault: config.isDefault,
        // Only the default config's versions share live traffic; another config's arms wait for it to be made the default.
        trafficPercent: toPercent(Math.max(0, FULL_TRAFFIC - taken)),
        // The control's rating is read from the answers the config gave without a version: since its A/B test
        // started when it has one, else every such answer (those from before included). An arm that counted no
        // answer has no rating of its own (not 4.00 beside 0 requests).
        metrics: toMetrics(counters, answeredCount(counters) > 0 ? rating : null),
      },
      versions: await versionViews(this.deps.ratings, versions),
    };
  }
}
