import { CONNECTION_TOKENS } from './connections.tokens';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import type { Container } from 'inversify';
import { studioRouter } from '../../../adapters/http/studio/studio.router';
import { TypeOrmStudioRepository } from '../../../adapters/persistence/studio/type-orm-studio.repository';
import { ChatTurnRunner } from '../../../core/conversations/use-cases/run-chat-turn';
import { CreateConfigVersionUseCase } from '../../../core/model-configs/use-cases/create-config-version.use-case';
import { PublishStudioUseCase } from '../../../core/studio/use-cases/publish-studio.use-case';
import { StudioDebugChatUseCase } from '../../../core/studio/use-cases/studio-debug-chat.use-case';
import { GetStudioDraftUseCase, SaveStudioDraftUseCase } from '../../../core/studio/use-cases/studio-draft.use-cases';
import {
  DiffStudioVersionsUseCase,
  GetStudioVersionUseCase,
  ListStudioVersionsUseCase,
  RestoreStudioVersionUseCase,
  StartStudioAbTestUseCase,
} from '../../../core/studio/use-cases/studio-versions.use-cases';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { MODEL_CONFIG_TOKENS } from './model-configs.tokens';
import { PROMPT_TOKENS } from './prompts.tokens';
import { STUDIO_TOKENS } from './studio.tokens';

/** The application studio: draft, publish and versions over the model configs, and the debug chat on the draft. */
export const studioModule: AppModule = {
  name: 'studio',
  bind(c: Container) {
    provide(c, STUDIO_TOKENS.StudioRepository, (get) => new TypeOrmStudioRepository(get(TOKENS.DataSource)));
    const deps = (get: Getter) => ({
      applications: get(TOKENS.ApplicationRepository),
      configs: get(MODEL_CONFIG_TOKENS.ModelConfigRepository),
      versions: get(MODEL_CONFIG_TOKENS.ConfigVersionRepository),
      templates: get(PROMPT_TOKENS.PromptTemplateRepository),
      studio: get(STUDIO_TOKENS.StudioRepository),
      connections: c.isBound(CONNECTION_TOKENS.Repository) ? get(CONNECTION_TOKENS.Repository) : undefined,
      retrievalSettings: c.isBound(KNOWLEDGE_TOKENS.RetrievalSettingsRepository) ? get(KNOWLEDGE_TOKENS.RetrievalSettingsRepository) : undefined,
    });
    provide(c, GetStudioDraftUseCase, (get) => new GetStudioDraftUseCase(deps(get)));
    provide(c, SaveStudioDraftUseCase, (get) => new SaveStudioDraftUseCase(deps(get)));
    provide(c, PublishStudioUseCase, (get) => new PublishStudioUseCase(deps(get)));
    provide(c, ListStudioVersionsUseCase, (get) => new ListStudioVersionsUseCase(deps(get)));
    provide(c, GetStudioVersionUseCase, (get) => new GetStudioVersionUseCase(deps(get)));
    provide(c, RestoreStudioVersionUseCase, (get) => new RestoreStudioVersionUseCase(deps(get)));
    provide(c, DiffStudioVersionsUseCase, (get) => new DiffStudioVersionsUseCase(deps(get)));
    provide(c, StartStudioAbTestUseCase, (get) => new StartStudioAbTestUseCase({ ...deps(get), createVersion: get(CreateConfigVersionUseCase) }));
    provide(c, StudioDebugChatUseCase, (get) => new StudioDebugChatUseCase({ ...deps(get), conversations: get(CHAT_TOKENS.ConversationRepository), runner: get(ChatTurnRunner), prices: get(TOKENS.Config).modelPrices }));
  },
  routers: (c) => [
    studioRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      getDraft: resolve(c, GetStudioDraftUseCase),
      saveDraft: resolve(c, SaveStudioDraftUseCase),
      publish: resolve(c, PublishStudioUseCase),
      listVersions: resolve(c, ListStudioVersionsUseCase),
      getVersion: resolve(c, GetStudioVersionUseCase),
      restore: resolve(c, RestoreStudioVersionUseCase),
      diff: resolve(c, DiffStudioVersionsUseCase),
      startAbTest: resolve(c, StartStudioAbTestUseCase),
      debug: resolve(c, StudioDebugChatUseCase),
    }),
  ],
};
