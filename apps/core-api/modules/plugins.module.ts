import type { DocumentReadyListener } from '../../../core/knowledge/ports/document-ready-listener.port';
import type { Container } from 'inversify';
import { pluginInstallationsRouter } from '../../../adapters/http/plugins/plugin-installations.router';
import { pluginsRouter } from '../../../adapters/http/plugins/plugins.router';
import { TypeOrmInstallationRepository } from '../../../adapters/persistence/plugins/type-orm-installation.repository';
import { TypeOrmPluginKvStore } from '../../../adapters/persistence/plugins/type-orm-plugin-kv.store';
import { TypeOrmPluginRepository } from '../../../adapters/persistence/plugins/type-orm-plugin.repository';
import { BullMqPluginScheduler } from '../../../adapters/plugins/bullmq.plugin-scheduler';
import { CronerPluginScheduler } from '../../../adapters/plugins/croner.plugin-scheduler';
import { FilteredHttpsPluginHttp } from '../../../adapters/plugins/filtered-https.plugin-http';
import { IsolatedVmPluginSandbox } from '../../../adapters/plugins/isolated-vm.plugin-sandbox';
import { YauzlPluginPackageReader } from '../../../adapters/plugins/yauzl.plugin-package-reader';
import { AjvJsonSchemaChecker } from '../../../adapters/tools/ajv.json-schema-checker';
import { shorthandPeriodMs } from '../../../core/plugins/domain/definition';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { ActivatePluginUseCase } from '../../../core/plugins/use-cases/activate-plugin.use-case';
import { CallPluginEndpointUseCase } from '../../../core/plugins/use-cases/call-plugin-endpoint.use-case';
import { CreatePluginUseCase } from '../../../core/plugins/use-cases/create-plugin.use-case';
import { DeactivatePluginUseCase } from '../../../core/plugins/use-cases/deactivate-plugin.use-case';
import { DispatchPlatformEventUseCase } from '../../../core/plugins/use-cases/dispatch-platform-event.use-case';
import { GetPluginUseCase } from '../../../core/plugins/use-cases/get-plugin.use-case';
import { InstallPluginUseCase } from '../../../core/plugins/use-cases/install-plugin.use-case';
import { ListAdminPagesUseCase } from '../../../core/plugins/use-cases/list-admin-pages.use-case';
import { GetInstallationUseCase, ListInstallationsUseCase } from '../../../core/plugins/use-cases/list-installations.use-case';
import { ListPluginsUseCase } from '../../../core/plugins/use-cases/list-plugins.use-case';
import { PluginChatPolicy } from '../../../core/plugins/use-cases/plugin-chat.policy';
import { PluginRuntime } from '../../../core/plugins/use-cases/plugin-runtime';
import { PublishPluginUseCase } from '../../../core/plugins/use-cases/publish-plugin.use-case';
import { RunPluginCronUseCase } from '../../../core/plugins/use-cases/run-plugin-cron.use-case';
import { UpdatePluginSettingsUseCase } from '../../../core/plugins/use-cases/update-plugin-settings.use-case';
import { UninstallPluginUseCase } from '../../../core/plugins/use-cases/uninstall-plugin.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { TOKENS, resolve } from '../../shared/tokens';
import { EVENT_TOKENS, eventDeps } from '../../shared/modules/event.tokens';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import { PluginEventSubscriber, PluginLifecyclePublisher } from '../../../core/plugins/use-cases/plugin-domain-events';
import type { ChatPolicyFactory } from './conversations.tokens';
import { PLUGIN_TOKENS } from './plugins.tokens';

/** The "plugins" chat policy, for `conversationsModule([...])`: after model, key and quota, before retrieval (so a redacting filter reaches the embedder too). */
export const pluginChatPolicy: ChatPolicyFactory = (c) => resolve(c, PluginChatPolicy);

export interface PluginsModuleOptions {
  /** BullMQ key prefix (tests give each run its own). */
  jobPrefix?: string;
  /** Tests: a local TLS server's CA and addresses for `platform.fetch`. */
  http?: ConstructorParameters<typeof FilteredHttpsPluginHttp>[0];
}

/** Plugins (SPEC 4.8, EXTENSIONS.md): packages, installations, the isolated-vm runtime, KV, endpoints, cron, bus. */
export function pluginsModule(options: PluginsModuleOptions = {}): AppModule {
  return {
    name: 'plugins',
    bind(c: Container) {
      provide(c, PLUGIN_TOKENS.PluginRepository, (get) => new TypeOrmPluginRepository(get(TOKENS.DataSource)));
      provide(c, PLUGIN_TOKENS.InstallationRepository, (get) => new TypeOrmInstallationRepository(get(TOKENS.DataSource)));
      provide(c, PLUGIN_TOKENS.KvStore, (get) => new TypeOrmPluginKvStore(get(TOKENS.DataSource)));
      provide(c, PLUGIN_TOKENS.Sandbox, (get) => {
        const logger = get(TOKENS.Logger);
        const { memoryMb, maxIsolates } = get(TOKENS.Config).plugins;
        return new IsolatedVmPluginSandbox({ memoryMb, maxLoaded: maxIsolates, onError: (installationId, message) => logger.error({ installationId }, message) });
      });
      if (!c.isBound(PLUGIN_TOKENS.Http)) provide(c, PLUGIN_TOKENS.Http, () => new FilteredHttpsPluginHttp(options.http));
      provide(c, PLUGIN_TOKENS.Scheduler, (get) => {
        const config = get(TOKENS.Config);
        return config.redisUrl ? new BullMqPluginScheduler({ redisUrl: config.redisUrl, prefix: options.jobPrefix ?? 'jobs' }) : new CronerPluginScheduler();
      });
      provide(c, PLUGIN_TOKENS.Runtime, (get) => {
        const config = get(TOKENS.Config);
        const logger = get(TOKENS.Logger);
        const hook = config.plugins.hookTimeoutMs;
        const runtime = new PluginRuntime({
          plugins: get(PLUGIN_TOKENS.PluginRepository),
          installations: get(PLUGIN_TOKENS.InstallationRepository),
          kv: get(PLUGIN_TOKENS.KvStore),
          sandbox: get(PLUGIN_TOKENS.Sandbox),
          http: get(PLUGIN_TOKENS.Http),
          secretBox: get(TOKENS.SecretBox),
          cache: get(TOKENS.Cache),
          // A hook may await KV or fetch: its wall time is longer than its CPU time, and still bounded.
          limits: { hook: { cpuMs: hook, wallMs: Math.max(hook * 20, 1000) }, call: { cpuMs: 1000, wallMs: 10_000 }, maxKeysPerInstallation: config.plugins.kvMaxKeys },
          lifecycle: c.isBound(PLUGIN_TOKENS.LifecycleListener)
            ? get(PLUGIN_TOKENS.LifecycleListener)
            : c.isBound(EVENT_TOKENS.Publisher)
              ? new PluginLifecyclePublisher({ ...eventDeps(c, get), onError: (err) => logger.warn({ err: { message: (err as Error).message } }, 'plugin state event not published') })
              : undefined,
          log: (installationId, level, message) => logger[level]({ pluginInstallationId: installationId }, `plugin: ${message}`),
          toolSchemas: new AjvJsonSchemaChecker(),
        });
        const scheduler = get(PLUGIN_TOKENS.Scheduler);
        runtime.onDeactivated = (installation) => scheduler.unschedule(installation.id);
        return runtime;
      });
      const deps = (get: Getter) => ({
        applications: get(TOKENS.ApplicationRepository),
        plugins: get(PLUGIN_TOKENS.PluginRepository),
        installations: get(PLUGIN_TOKENS.InstallationRepository),
      });
      const withRuntime = (get: Getter) => ({ ...deps(get), runtime: get(PLUGIN_TOKENS.Runtime), scheduler: get(PLUGIN_TOKENS.Scheduler) });
      provide(c, CreatePluginUseCase, (get) => new CreatePluginUseCase({ plugins: get(PLUGIN_TOKENS.PluginRepository), packages: new YauzlPluginPackageReader() }));
      provide(c, ListPluginsUseCase, (get) => new ListPluginsUseCase(deps(get)));
      provide(c, GetPluginUseCase, (get) => new GetPluginUseCase(deps(get)));
      provide(c, PublishPluginUseCase, (get) => new PublishPluginUseCase({ plugins: get(PLUGIN_TOKENS.PluginRepository), cache: get(TOKENS.Cache) }));
      provide(c, InstallPluginUseCase, (get) => new InstallPluginUseCase({ ...deps(get), secretBox: get(TOKENS.SecretBox) }));
      provide(c, ListInstallationsUseCase, (get) => new ListInstallationsUseCase(deps(get)));
      provide(c, GetInstallationUseCase, (get) => new GetInstallationUseCase(deps(get)));
      provide(c, ActivatePluginUseCase, (get) =>
        new ActivatePluginUseCase({ ...withRuntime(get), gate: c.isBound(PLUGIN_TOKENS.ActivationGate) ? get(PLUGIN_TOKENS.ActivationGate) : undefined }),
      );
      provide(c, DeactivatePluginUseCase, (get) => new DeactivatePluginUseCase(withRuntime(get)));
      provide(c, UninstallPluginUseCase, (get) => new UninstallPluginUseCase(withRuntime(get)));
      provide(c, UpdatePluginSettingsUseCase, (get) => new UpdatePluginSettingsUseCase({ ...withRuntime(get), secretBox: get(TOKENS.SecretBox) }));
      provide(c, ListAdminPagesUseCase, (get) => new ListAdminPagesUseCase(withRuntime(get)));
      provide(c, CallPluginEndpointUseCase, (get) => new CallPluginEndpointUseCase(withRuntime(get)));
      provide(c, RunPluginCronUseCase, (get) => new RunPluginCronUseCase(withRuntime(get)));
      provide(c, DispatchPlatformEventUseCase, (get) => new DispatchPlatformEventUseCase(withRuntime(get)));
      // Committed domain events reach the plugins' webhook handlers (and the conversation hooks they map to).
      c.bind(EVENT_TOKENS.Subscriber).toDynamicValue(() => new PluginEventSubscriber(resolve(c, DispatchPlatformEventUseCase))).inSingletonScope();
      c.bind(KNOWLEDGE_TOKENS.DocumentReadyListener)
        .toDynamicValue(() => {
          const runtime = resolve(c, PLUGIN_TOKENS.Runtime);
          const listener: DocumentReadyListener = { documentReady: (document) => runtime.runAction(document.applicationId, 'knowledge:documentReady', { document }) };
          return listener;
        })
        .inSingletonScope();
      provide(c, PluginChatPolicy, (get) => new PluginChatPolicy(get(PLUGIN_TOKENS.Runtime)));
    },
    routers: (c) => [
      pluginsRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        create: resolve(c, CreatePluginUseCase),
        list: resolve(c, ListPluginsUseCase),
        get: resolve(c, GetPluginUseCase),
        publish: resolve(c, PublishPluginUseCase),
        endpoint: resolve(c, CallPluginEndpointUseCase),
        apiKeys: resolve(c, AuthenticateApiKeyUseCase),
      }),
      pluginInstallationsRouter({
        auth: resolve(c, TOKENS.AuthMiddleware),
        install: resolve(c, InstallPluginUseCase),
        installFromMarketplace: c.isBound(PLUGIN_TOKENS.MarketplaceInstaller) ? resolve(c, PLUGIN_TOKENS.MarketplaceInstaller) : undefined,
        list: resolve(c, ListInstallationsUseCase),
        get: resolve(c, GetInstallationUseCase),
        activate: resolve(c, ActivatePluginUseCase),
        deactivate: resolve(c, DeactivatePluginUseCase),
        uninstall: resolve(c, UninstallPluginUseCase),
        adminPages: resolve(c, ListAdminPagesUseCase),
        updateSettings: resolve(c, UpdatePluginSettingsUseCase),
      }),
    ],
    async start(c) {
      const scheduler = resolve(c, PLUGIN_TOKENS.Scheduler);
      const runtime = resolve(c, PLUGIN_TOKENS.Runtime);
      const cron = resolve(c, RunPluginCronUseCase);
      await scheduler.start((job) => cron.execute(job));
      if (scheduler instanceof CronerPluginScheduler) await rescheduleActive(c, runtime, scheduler);
      return async () => {
        await scheduler.close();
        await runtime.close();
        await resolve(c, PLUGIN_TOKENS.Sandbox).close();
      };
    },
  };
}

/** In-process cron lives in memory: after a start, the active installations' jobs are scheduled again. */
async function rescheduleActive(c: Container, runtime: PluginRuntime, scheduler: CronerPluginScheduler): Promise<void> {
  const logger = resolve(c, TOKENS.Logger);
  for (const installation of await resolve(c, PLUGIN_TOKENS.InstallationRepository).listAllActive()) {
    try {
      const { definition } = await runtime.load(installation);
      const jobs = definition.cron.map((job) => ({ installationId: installation.id, name: job.name, ...everyOrPattern(job.schedule), timezone: job.timezone }));
      if (jobs.length) await scheduler.schedule(installation.id, jobs);
    } catch (error) {
      logger.warn({ installationId: installation.id, err: { message: (error as Error).message } }, 'plugin cron not rescheduled');
    }
  }
}

function everyOrPattern(schedule: string): { everyMs: number } | { pattern: string } {
  const everyMs = shorthandPeriodMs(schedule);
  return everyMs !== null ? { everyMs } : { pattern: schedule };
}
