import { CONNECTION_TOKENS } from './connections.tokens';
import type { Container } from 'inversify';
import { messageRatingRouter } from '../../../adapters/http/model-configs/message-rating.router';
import { modelConfigsRouter } from '../../../adapters/http/model-configs/model-configs.router';
import { TypeOrmConfigVersionRepository } from '../../../adapters/persistence/model-configs/type-orm-config-version.repository';
import { TypeOrmMessageRatingRepository } from '../../../adapters/persistence/model-configs/type-orm-message-rating.repository';
import { TypeOrmModelConfigRepository } from '../../../adapters/persistence/model-configs/type-orm-model-config.repository';
import { CreateConfigVersionUseCase } from '../../../core/model-configs/use-cases/create-config-version.use-case';
import { CreateModelConfigUseCase } from '../../../core/model-configs/use-cases/create-model-config.use-case';
import { DeleteConfigVersionUseCase } from '../../../core/model-configs/use-cases/delete-config-version.use-case';
import { DeleteModelConfigUseCase } from '../../../core/model-configs/use-cases/delete-model-config.use-case';
import { GetModelConfigUseCase } from '../../../core/model-configs/use-cases/get-model-config.use-case';
import { ListConfigVersionsUseCase } from '../../../core/model-configs/use-cases/list-config-versions.use-case';
import { CompareConfigVersionsUseCase } from '../../../core/model-configs/use-cases/compare-config-versions.use-case';
import { ListModelConfigsUseCase } from '../../../core/model-configs/use-cases/list-model-configs.use-case';
import { ModelConfigPolicy } from '../../../core/model-configs/use-cases/model-config.policy';
import { RateMessageUseCase } from '../../../core/model-configs/use-cases/rate-message.use-case';
import { SetDefaultModelConfigUseCase } from '../../../core/model-configs/use-cases/set-default-model-config.use-case';
import { UpdateConfigVersionUseCase } from '../../../core/model-configs/use-cases/update-config-version.use-case';
import { UpdateModelConfigUseCase } from '../../../core/model-configs/use-cases/update-model-config.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import type { ChatPolicyFactory } from './conversations.tokens';
import { PROMPT_TOKENS } from './prompts.tokens';
import { CachedConfigVersionRepository, CachedModelConfigRepository } from '../../../adapters/cache/cached-repositories';
import { MODEL_CONFIG_TOKENS } from './model-configs.tokens';
import { EXPERIMENT_TOKENS } from './experiments.tokens';

/** Chooses model, settings and system prompt of every turn and keeps A/B metrics; runs first. */
export const modelConfigPolicy: ChatPolicyFactory = (c) => resolve(c, ModelConfigPolicy);

/** Model configs, A/B versions with metrics, and answer ratings (SPEC 2.2-2.4, 4.5). */
export const modelConfigsModule: AppModule = {
  name: 'model-configs',
  bind(c: Container) {
    const ds = (get: Getter) => get(TOKENS.DataSource);
    provide(c, MODEL_CONFIG_TOKENS.ModelConfigRepository, (get) => new CachedModelConfigRepository(new TypeOrmModelConfigRepository(ds(get)), get(TOKENS.Cache)));
    provide(c, MODEL_CONFIG_TOKENS.ConfigVersionRepository, (get) => new CachedConfigVersionRepository(new TypeOrmConfigVersionRepository(ds(get)), get(TOKENS.Cache)));
    provide(c, MODEL_CONFIG_TOKENS.MessageRatingRepository, (get) => new TypeOrmMessageRatingRepository(ds(get)));
    const deps = (get: Getter) => ({
      applications: get(TOKENS.ApplicationRepository),
      // Team roles for the access policy (the application repository answers them, never cached).
      teams: get(TOKENS.ApplicationRepository),
      configs: get(MODEL_CONFIG_TOKENS.ModelConfigRepository),
      versions: get(MODEL_CONFIG_TOKENS.ConfigVersionRepository),
      ratings: get(MODEL_CONFIG_TOKENS.MessageRatingRepository),
      connections: c.isBound(CONNECTION_TOKENS.Repository) ? get(CONNECTION_TOKENS.Repository) : undefined,
    });
    provide(c, CreateModelConfigUseCase, (get) => new CreateModelConfigUseCase(deps(get)));
    provide(c, ListModelConfigsUseCase, (get) => new ListModelConfigsUseCase(deps(get)));
    provide(c, GetModelConfigUseCase, (get) => new GetModelConfigUseCase(deps(get)));
    provide(c, UpdateModelConfigUseCase, (get) => new UpdateModelConfigUseCase(deps(get)));
    provide(c, DeleteModelConfigUseCase, (get) => new DeleteModelConfigUseCase(deps(get)));
    provide(c, SetDefaultModelConfigUseCase, (get) => new SetDefaultModelConfigUseCase(deps(get)));
    provide(c, ListConfigVersionsUseCase, (get) => new ListConfigVersionsUseCase(deps(get)));
    provide(c, CompareConfigVersionsUseCase, (get) => {
      const experiments = c.isBound(EXPERIMENT_TOKENS.ExperimentRepository) ? get(EXPERIMENT_TOKENS.ExperimentRepository) : null;
      const controlSince = experiments ? async (configId: string) => (await experiments.findByConfig(configId))?.startedAt ?? null : undefined;
      return new CompareConfigVersionsUseCase({ ...deps(get), controlSince });
    });
    provide(c, CreateConfigVersionUseCase, (get) => new CreateConfigVersionUseCase(deps(get)));
    provide(c, UpdateConfigVersionUseCase, (get) => new UpdateConfigVersionUseCase(deps(get)));
    provide(c, DeleteConfigVersionUseCase, (get) => new DeleteConfigVersionUseCase(deps(get)));
    provide(c, RateMessageUseCase, (get) =>
      new RateMessageUseCase({
        ...deps(get),
        conversations: get(CHAT_TOKENS.ConversationRepository),
        observed: c.isBound(EXPERIMENT_TOKENS.Observed) ? get(EXPERIMENT_TOKENS.Observed) : undefined,
      }));
    provide(c, ModelConfigPolicy, (get) => {
      const logger = get(TOKENS.Logger);
      return new ModelConfigPolicy({
        ...deps(get),
        templates: get(PROMPT_TOKENS.PromptTemplateRepository),
        onMetricsError: (error) => logger.error({ err: error }, 'could not record the metrics of a config version'),
      });
    });
  },
  routers: (c) => [
    modelConfigsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateModelConfigUseCase),
      list: resolve(c, ListModelConfigsUseCase),
      get: resolve(c, GetModelConfigUseCase),
      update: resolve(c, UpdateModelConfigUseCase),
      remove: resolve(c, DeleteModelConfigUseCase),
      setDefault: resolve(c, SetDefaultModelConfigUseCase),
      listVersions: resolve(c, ListConfigVersionsUseCase),
      compareVersions: resolve(c, CompareConfigVersionsUseCase),
      createVersion: resolve(c, CreateConfigVersionUseCase),
      updateVersion: resolve(c, UpdateConfigVersionUseCase),
      removeVersion: resolve(c, DeleteConfigVersionUseCase),
    }),
    messageRatingRouter({ auth: resolve(c, TOKENS.AuthMiddleware), rate: resolve(c, RateMessageUseCase) }),
  ],
};
