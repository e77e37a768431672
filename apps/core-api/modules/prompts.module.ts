import type { Container } from 'inversify';
import { promptsRouter } from '../../../adapters/http/prompts/prompts.router';
import { TypeOrmPromptTemplateRepository } from '../../../adapters/persistence/prompts/type-orm-prompt-template.repository';
import { CreatePromptTemplateUseCase } from '../../../core/prompts/use-cases/create-prompt-template.use-case';
import { DeletePromptTemplateUseCase } from '../../../core/prompts/use-cases/delete-prompt-template.use-case';
import { GetPromptTemplateUseCase } from '../../../core/prompts/use-cases/get-prompt-template.use-case';
import { ListPromptTemplatesUseCase } from '../../../core/prompts/use-cases/list-prompt-templates.use-case';
import { RenderPromptUseCase } from '../../../core/prompts/use-cases/render-prompt.use-case';
import { SetDefaultPromptTemplateUseCase } from '../../../core/prompts/use-cases/set-default-prompt-template.use-case';
import { UpdatePromptTemplateUseCase } from '../../../core/prompts/use-cases/update-prompt-template.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { CachedPromptTemplateRepository } from '../../../adapters/cache/cached-repositories';
import { PROMPT_TOKENS } from './prompts.tokens';

/** Prompt templates (SPEC 4.7); the default template is read by the model-config chat policy. */
export const promptsModule: AppModule = {
  name: 'prompts',
  bind(c: Container) {
    provide(c, PROMPT_TOKENS.PromptTemplateRepository, (get) => new CachedPromptTemplateRepository(new TypeOrmPromptTemplateRepository(get(TOKENS.DataSource)), get(TOKENS.Cache)));
    const deps = (get: Getter) => ({
      applications: get(TOKENS.ApplicationRepository),
      // Team roles for the access policy (the application repository answers them, never cached).
      teams: get(TOKENS.ApplicationRepository),
      templates: get(PROMPT_TOKENS.PromptTemplateRepository),
    });
    provide(c, CreatePromptTemplateUseCase, (get) => new CreatePromptTemplateUseCase(deps(get)));
    provide(c, ListPromptTemplatesUseCase, (get) => new ListPromptTemplatesUseCase(deps(get)));
    provide(c, GetPromptTemplateUseCase, (get) => new GetPromptTemplateUseCase(deps(get)));
    provide(c, UpdatePromptTemplateUseCase, (get) => new UpdatePromptTemplateUseCase(deps(get)));
    provide(c, DeletePromptTemplateUseCase, (get) => new DeletePromptTemplateUseCase(deps(get)));
    provide(c, SetDefaultPromptTemplateUseCase, (get) => new SetDefaultPromptTemplateUseCase(deps(get)));
    provide(c, RenderPromptUseCase, (get) => new RenderPromptUseCase(deps(get)));
  },
  routers: (c) => [
    promptsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreatePromptTemplateUseCase),
      list: resolve(c, ListPromptTemplatesUseCase),
      get: resolve(c, GetPromptTemplateUseCase),
      update: resolve(c, UpdatePromptTemplateUseCase),
      remove: resolve(c, DeletePromptTemplateUseCase),
      setDefault: resolve(c, SetDefaultPromptTemplateUseCase),
      render: resolve(c, RenderPromptUseCase),
    }),
  ],
};
