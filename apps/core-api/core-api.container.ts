import type { HealthCheck } from '../../core/health/ports/health-check.port';
import type { AppModule } from '../shared/app-module';
import { composeApp, type ComposedApp } from '../shared/compose';
import type { Infrastructure } from '../shared/infrastructure';
import { healthModule } from '../shared/modules/health.module';
import { infrastructureModule, type InfrastructureModuleOptions } from '../shared/modules/infrastructure.module';
import { accountsModule } from './modules/accounts.module';
import { identitiesModule } from './modules/identities.module';
import { ssoModule } from './modules/sso.module';
import { apiKeysModule } from './modules/api-keys.module';
import { applicationsModule } from './modules/applications.module';
import { billingModule, keysAndQuotaPolicy } from './modules/billing.module';
import { conversationsModule } from './modules/conversations.module';
import { knowledgeModule, knowledgeRetrievalPolicy } from './modules/knowledge.module';
import { publicApiModule } from './modules/public-api.module';
import { modelConfigPolicy, modelConfigsModule } from './modules/model-configs.module';
import { experimentsModule } from './modules/experiments.module';
import { pluginChatPolicy, pluginsModule } from './modules/plugins.module';
import { promptsModule } from './modules/prompts.module';
import { providerKeysModule } from './modules/provider-keys.module';
import { connectionChatPolicy, connectionsModule } from './modules/connections.module';
import { uploadsModule } from './modules/uploads.module';
import { themesModule } from './modules/themes.module';
import { brandingModule } from './modules/branding.module';
import { hostedPageModule } from './modules/hosted-page.module';
import { customDomainsModule } from './modules/custom-domains.module';
import { chatEngineModule } from '../shared/modules/chat-engine.module';
import { auditModule } from './modules/audit.module';
import { adminModule } from './modules/admin.module';
import { dataExportModule } from './modules/data-export.module';
import { eventsModule } from './modules/events.module';
import { notificationsModule } from './modules/notifications.module';
import { webhooksModule } from './modules/webhooks.module';
import { analyticsModule, analyticsPolicy } from './modules/analytics.module';
import { systemHealthModule } from './modules/system-health.module';
import { marketplaceModule } from './modules/marketplace.module';
import { workflowsModule } from './modules/workflows.module';
import { teamsModule } from './modules/teams.module';
import { toolsModule } from './modules/tools.module';
import { consoleModule } from './modules/console.module';
import { studioModule } from './modules/studio.module';
import { tracedChatPolicies, tracesModule } from './modules/traces.module';
import { logsModule } from './modules/logs.module';
import { evaluationsModule } from './modules/evaluations.module';

/** The AI service answering its health endpoint; without it chat fails but the rest serves: degraded. */
function aiServiceCheck(url: string): HealthCheck {
  return {
    name: 'ai-service',
    critical: false,
    async check() {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (!res.ok) throw new Error(`status ${res.status}`);
    },
  };
}

export interface CoreApiOptions extends InfrastructureModuleOptions {
  /**
   * `from-config` (default): over HTTP to the AI service at AI_SERVICE_URL when it is set, else in-process.
   * `in-process`: the engine runs in this process whatever AI_SERVICE_URL says (`npm start`, where the AI
   * service is in the same process and an HTTP hop to it would only add latency).
   */
  chatEngine?: 'from-config' | 'in-process';
  /** Serve the web console at `/` (default: on; an embedded platform turns it off unless asked). */
  console?: boolean;
}

/** The areas of the core API, in binding order. */
export function coreApiModules(infra: Infrastructure, options: CoreApiOptions = {}): AppModule[] {
  const engine = options.chatEngine ?? 'from-config';
  const remoteAi = engine === 'from-config' ? infra.config.aiServiceUrl : undefined;
  return [
    infrastructureModule(infra, options),
    accountsModule,
    identitiesModule,
    applicationsModule,
    teamsModule,
    ssoModule,
    themesModule,
    apiKeysModule,
    chatEngineModule(engine),
    providerKeysModule,
    connectionsModule,
    billingModule,
    brandingModule,
    promptsModule,
    modelConfigsModule,
    experimentsModule(),
    uploadsModule,
    knowledgeModule(),
    tracesModule(),
    conversationsModule(tracedChatPolicies([modelConfigPolicy, connectionChatPolicy, keysAndQuotaPolicy, pluginChatPolicy, knowledgeRetrievalPolicy, analyticsPolicy])),
    studioModule,
    logsModule,
    publicApiModule,
    hostedPageModule,
    customDomainsModule,
    pluginsModule(),
    marketplaceModule(),
    notificationsModule,
    auditModule,
    adminModule,
    dataExportModule(),
    webhooksModule(),
    analyticsModule,
    systemHealthModule(remoteAi),
    workflowsModule(),
    evaluationsModule(),
    toolsModule,
    // Last: its dispatcher starts once every subscriber (webhooks, notifications, plugins) is bound.
    eventsModule(),
    healthModule('core-api', 'core-api', remoteAi ? [aiServiceCheck(remoteAi)] : []),
    ...(options.console === false ? [] : [consoleModule()]),
  ];
}

/** The public REST API ({base_url}). */
export function createCoreApi(infra: Infrastructure, options: CoreApiOptions = {}): Promise<ComposedApp> {
  return composeApp('core-api', infra, coreApiModules(infra, options));
}
