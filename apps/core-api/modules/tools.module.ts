import type { Container } from 'inversify';
import { toolsRouter } from '../../../adapters/http/tools/tools.router';
import { SqlToolRepository } from '../../../adapters/persistence/tools/sql-tool.repository';
import { AjvJsonSchemaChecker } from '../../../adapters/tools/ajv.json-schema-checker';
import type { JsonSchemaChecker } from '../../../core/tools/ports/json-schema.port';
import type { ToolRepository } from '../../../core/tools/ports/tool-repository.port';
import { GetAgentSettingsUseCase, UpdateAgentSettingsUseCase } from '../../../core/tools/use-cases/agent-settings.use-cases';
import { CreateToolUseCase, DeleteToolUseCase, GetToolUseCase, ListToolsUseCase, UpdateToolUseCase } from '../../../core/tools/use-cases/manage-tools.use-cases';
import type { ToolDeps } from '../../../core/tools/use-cases/tool-deps';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve, token } from '../../shared/tokens';

export const TOOL_TOKENS = {
  Repository: token<ToolRepository>('ToolRepository'),
  Schemas: token<JsonSchemaChecker>('ToolJsonSchemas'),
} as const;

/** Tools and agents (docs/tools.md): an application's tool definitions and its agent settings. */
export const toolsModule: AppModule = {
  name: 'tools',
  bind(c: Container) {
    provide(c, TOOL_TOKENS.Repository, (get) => new SqlToolRepository(get(TOKENS.DataSource)));
    provide(c, TOOL_TOKENS.Schemas, () => new AjvJsonSchemaChecker());
    const deps = (get: Getter): ToolDeps => ({
      tools: get(TOOL_TOKENS.Repository),
      applications: get(TOKENS.ApplicationRepository),
      schemas: get(TOOL_TOKENS.Schemas),
      secretBox: get(TOKENS.SecretBox),
    });
    provide(c, CreateToolUseCase, (get) => new CreateToolUseCase(deps(get)));
    provide(c, ListToolsUseCase, (get) => new ListToolsUseCase(deps(get)));
    provide(c, GetToolUseCase, (get) => new GetToolUseCase(deps(get)));
    provide(c, UpdateToolUseCase, (get) => new UpdateToolUseCase(deps(get)));
    provide(c, DeleteToolUseCase, (get) => new DeleteToolUseCase(deps(get)));
    provide(c, GetAgentSettingsUseCase, (get) => new GetAgentSettingsUseCase(deps(get)));
    provide(c, UpdateAgentSettingsUseCase, (get) => new UpdateAgentSettingsUseCase(deps(get)));
  },
  routers: (c) => [
    toolsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateToolUseCase),
      list: resolve(c, ListToolsUseCase),
      get: resolve(c, GetToolUseCase),
      update: resolve(c, UpdateToolUseCase),
      remove: resolve(c, DeleteToolUseCase),
      getAgent: resolve(c, GetAgentSettingsUseCase),
      updateAgent: resolve(c, UpdateAgentSettingsUseCase),
    }),
  ],
};
