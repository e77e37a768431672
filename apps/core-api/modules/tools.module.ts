import type { Container } from 'inversify';
import { mcpRouter } from '../../../adapters/http/tools/mcp.router';
import { toolsRouter } from '../../../adapters/http/tools/tools.router';
import { internalToolsRouter } from '../../../adapters/http/tools/internal-tools.router';
import { serviceTokenAuth } from '../../../adapters/http/shared/service-token.middleware';
import { SqlToolRepository } from '../../../adapters/persistence/tools/sql-tool.repository';
import { AjvJsonSchemaChecker } from '../../../adapters/tools/ajv.json-schema-checker';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { SearchKnowledgeUseCase } from '../../../core/knowledge/use-cases/search-knowledge.use-case';
import { SendPublicMessageUseCase } from '../../../core/public-api/use-cases/send-public-message.use-case';
import { ApplicationMcpUseCase } from '../../../core/tools/use-cases/application-mcp.use-case';
import { RunWorkflowByApiUseCase } from '../../../core/workflows/use-cases/workflow-runs.use-cases';
import { GetAgentSettingsUseCase, UpdateAgentSettingsUseCase } from '../../../core/tools/use-cases/agent-settings.use-cases';
import { CreateToolUseCase, DeleteToolUseCase, GetToolUseCase, ListToolsUseCase, UpdateToolUseCase } from '../../../core/tools/use-cases/manage-tools.use-cases';
import type { ToolDeps } from '../../../core/tools/use-cases/tool-deps';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { CachedToolRepository } from '../../../adapters/cache/cached-tool-repository';
import { httpToolRunner, outboundUrlRules } from '../../shared/modules/http-tool-runner';
import { SearchKnowledgeToolRunner } from '../../../core/tools/use-cases/search-knowledge.tool-runner';
import { KeyedToolRunners } from '../../../core/tools/use-cases/tool-runners';
import { TurnToolsLoader } from '../../../core/tools/use-cases/turn-tools';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { WORKFLOW_TOKENS } from './workflows.tokens';
import { PLATFORM_VERSION } from '../../shared/version';
import { mcpServersRouter } from '../../../adapters/http/tools/mcp-servers.router';
import { SqlMcpServerRepository } from '../../../adapters/persistence/tools/sql-mcp-server.repository';
import { SdkMcpClient } from '../../../adapters/tools/sdk.mcp-client';
import { ssrfSafeFetch } from '../../../adapters/tools/ssrf-safe.fetch';
import { SsrfSafeWebhookSender } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { PluginTools } from '../../../core/plugins/use-cases/plugin-tools';
import { ApplicationToolset, ListAvailableToolsUseCase } from '../../../core/tools/use-cases/application-toolset';
import {
  CreateMcpServerUseCase,
  DeleteMcpServerUseCase,
  GetMcpServerUseCase,
  ListMcpServersUseCase,
  RefreshMcpServerUseCase,
  UpdateMcpServerUseCase,
  type McpServerDeps,
} from '../../../core/tools/use-cases/mcp-servers.use-cases';
import { McpTools } from '../../../core/tools/use-cases/mcp-tools';
import { RunWorkflowToolRunner } from '../../../core/workflows/use-cases/run-workflow.tool-runner';
import { StartRuns } from '../../../core/workflows/use-cases/workflow-runs.use-cases';
import { PLUGIN_TOKENS } from './plugins.tokens';
import { TOOL_TOKENS } from './tools.tokens';

/**
 * Tools and agents (docs/tools.md): an application's tool definitions and its agent settings, and each
 * application as an MCP server at /api/v1/mcp. Bound after the public API, knowledge and workflows
 * modules, whose use cases the MCP tools call when they are there.
 */
export const toolsModule: AppModule = {
  name: 'tools',
  bind(c: Container) {
    provide(c, TOOL_TOKENS.Repository, (get) => new CachedToolRepository(new SqlToolRepository(get(TOKENS.DataSource)), get(TOKENS.Cache)));
    provide(c, TOOL_TOKENS.Schemas, () => new AjvJsonSchemaChecker());
    provide(c, TOOL_TOKENS.McpServers, (get) => new SqlMcpServerRepository(get(TOKENS.DataSource)));
    provide(c, TOOL_TOKENS.McpClient, (get) => {
      const config = get(TOKENS.Config);
      // The webhooks' network rules: https only unless WEBHOOKS_ALLOW_HTTP, private ranges only those WEBHOOKS_ALLOWED_PRIVATE_CIDRS lists.
      const rules = { allowHttp: config.outboundAllowHttp, allowedPrivateCidrs: config.outboundAllowedPrivateCidrs };
      const urlCheck = new SsrfSafeWebhookSender(rules);
      return new SdkMcpClient({ fetch: ssrfSafeFetch({ ...rules, urlCheck, userAgent: `ai-app-platform/${PLATFORM_VERSION}` }), urlCheck, clientName: 'ai-app-platform', clientVersion: PLATFORM_VERSION });
    });
    const mcpDeps = (get: Getter): McpServerDeps => ({
      servers: get(TOOL_TOKENS.McpServers),
      applications: get(TOKENS.ApplicationRepository),
      client: get(TOOL_TOKENS.McpClient),
      schemas: get(TOOL_TOKENS.Schemas),
      secretBox: get(TOKENS.SecretBox),
    });
    provide(c, McpTools, (get) => new McpTools(mcpDeps(get)));
    if (c.isBound(PLUGIN_TOKENS.Runtime)) provide(c, PluginTools, (get) => new PluginTools(get(PLUGIN_TOKENS.Runtime)));
    provide(c, TOOL_TOKENS.TurnTools, (get) => new TurnToolsLoader(get(TOOL_TOKENS.Repository), get(TOOL_TOKENS.Toolset)));
    provide(c, TOOL_TOKENS.Toolset, (get) =>
      new ApplicationToolset({ tools: get(TOOL_TOKENS.Repository), sources: [...(c.isBound(PluginTools) ? [get(PluginTools)] : []), get(McpTools)] }),
    );
    provide(c, TOOL_TOKENS.Runners, (get) => {
      const runners = new KeyedToolRunners().register('mcp', get(McpTools));
      if (c.isBound(PluginTools)) runners.register('plugin', get(PluginTools));
      runners.register('http', httpToolRunner(get));
      if (c.isBound(StartRuns)) runners.register('builtin:run_workflow', new RunWorkflowToolRunner({ workflows: get(WORKFLOW_TOKENS.Repository), runs: get(StartRuns) }));
      if (c.isBound(SearchKnowledgeUseCase)) {
        const search = get(SearchKnowledgeUseCase);
        runners.register(
          'builtin:search_knowledge',
          new SearchKnowledgeToolRunner(async (applicationId, ownerId, query, limit) =>
            (await search.execute({ applicationId, query, limit }, { userId: ownerId, role: 'user' })).map((h) => ({ title: h.fileName, content: h.text, score: h.score })),
          ),
        );
      }
      return runners;
    });
    provide(c, CreateMcpServerUseCase, (get) => new CreateMcpServerUseCase(mcpDeps(get)));
    provide(c, ListMcpServersUseCase, (get) => new ListMcpServersUseCase(mcpDeps(get)));
    provide(c, GetMcpServerUseCase, (get) => new GetMcpServerUseCase(mcpDeps(get)));
    provide(c, UpdateMcpServerUseCase, (get) => new UpdateMcpServerUseCase(mcpDeps(get)));
    provide(c, DeleteMcpServerUseCase, (get) => new DeleteMcpServerUseCase(mcpDeps(get)));
    provide(c, RefreshMcpServerUseCase, (get) => new RefreshMcpServerUseCase(mcpDeps(get)));
    provide(c, ListAvailableToolsUseCase, (get) => new ListAvailableToolsUseCase({ applications: get(TOKENS.ApplicationRepository), toolset: get(TOOL_TOKENS.Toolset) }));
    // Chat turns run their tool calls in this process (the engine in it, or the core API's own when AI_SERVICE_URL is unset).
    provide(c, CHAT_TOKENS.ToolRuntime, (get) => ({ schemas: get(TOOL_TOKENS.Schemas), runners: get(TOOL_TOKENS.Runners) }));
    const deps = (get: Getter): ToolDeps => ({
      toolNames: (applicationId) => get(TOOL_TOKENS.Toolset).names(applicationId),
      tools: get(TOOL_TOKENS.Repository),
      applications: get(TOKENS.ApplicationRepository),
      schemas: get(TOOL_TOKENS.Schemas),
      secretBox: get(TOKENS.SecretBox),
      urls: outboundUrlRules(get),
      ...(c.isBound(WORKFLOW_TOKENS.Repository)
        ? { workflowApplication: async (id: string) => (await get(WORKFLOW_TOKENS.Repository).findById(id))?.applicationId ?? null }
        : {}),
    });
    provide(c, CreateToolUseCase, (get) => new CreateToolUseCase(deps(get)));
    provide(c, ListToolsUseCase, (get) => new ListToolsUseCase(deps(get)));
    provide(c, GetToolUseCase, (get) => new GetToolUseCase(deps(get)));
    provide(c, UpdateToolUseCase, (get) => new UpdateToolUseCase(deps(get)));
    provide(c, DeleteToolUseCase, (get) => new DeleteToolUseCase(deps(get)));
    provide(c, GetAgentSettingsUseCase, (get) => new GetAgentSettingsUseCase(deps(get)));
    provide(c, UpdateAgentSettingsUseCase, (get) => new UpdateAgentSettingsUseCase(deps(get)));
    provide(c, ApplicationMcpUseCase, (get) =>
      new ApplicationMcpUseCase({
        applications: get(TOKENS.ApplicationRepository),
        tools: get(TOOL_TOKENS.Repository),
        chat: get(SendPublicMessageUseCase),
        ...(c.isBound(SearchKnowledgeUseCase) ? { knowledge: get(SearchKnowledgeUseCase) } : {}),
        ...(c.isBound(RunWorkflowByApiUseCase) ? { workflows: get(RunWorkflowByApiUseCase) } : {}),
      }),
    );
  },
  routers: (c) => [
    // First: its /tools/available is matched before /tools/:toolId.
    mcpServersRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      available: resolve(c, ListAvailableToolsUseCase),
      create: resolve(c, CreateMcpServerUseCase),
      list: resolve(c, ListMcpServersUseCase),
      get: resolve(c, GetMcpServerUseCase),
      update: resolve(c, UpdateMcpServerUseCase),
      remove: resolve(c, DeleteMcpServerUseCase),
      refresh: resolve(c, RefreshMcpServerUseCase),
    }),
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
    // The AI service, apart from the core API, runs here the calls it cannot run itself (docs/tools.md).
    internalToolsRouter({
      auth: serviceTokenAuth(resolve(c, TOKENS.Config).aiServiceToken),
      applications: resolve(c, TOKENS.ApplicationRepository),
      toolset: resolve(c, TOOL_TOKENS.Toolset),
      runners: resolve(c, TOOL_TOKENS.Runners),
    }),
    mcpRouter({ authenticate: resolve(c, AuthenticateApiKeyUseCase), mcp: resolve(c, ApplicationMcpUseCase), serverName: 'ai-app-platform', serverVersion: PLATFORM_VERSION }),
  ],
};
