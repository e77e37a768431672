import type { InstallationRepository } from '../../../core/plugins/ports/installation-repository.port';
import type { PluginHttp } from '../../../core/plugins/ports/plugin-http.port';
import type { PluginKvStore } from '../../../core/plugins/ports/plugin-kv-store.port';
import type { PluginRepository } from '../../../core/plugins/ports/plugin-repository.port';
import type { PluginSandbox } from '../../../core/plugins/ports/plugin-sandbox.port';
import type { PluginScheduler } from '../../../core/plugins/ports/plugin-scheduler.port';
import type { ActivationGate } from '../../../core/plugins/use-cases/activate-plugin.use-case';
import type { PluginRuntime, PluginLifecycleListener } from '../../../core/plugins/use-cases/plugin-runtime';
import type { MarketplaceInstaller } from '../../../adapters/http/plugins/plugin-installations.router';
import { token } from '../../shared/tokens';

export const PLUGIN_TOKENS = {
  PluginRepository: token<PluginRepository>('PluginRepository'),
  InstallationRepository: token<InstallationRepository>('PluginInstallationRepository'),
  KvStore: token<PluginKvStore>('PluginKvStore'),
  Sandbox: token<PluginSandbox>('PluginSandbox'),
  Http: token<PluginHttp>('PluginHttp'),
  Scheduler: token<PluginScheduler>('PluginScheduler'),
  /** Told about state changes; the events area binds one to publish plugin.activated / plugin.deactivated. */
  LifecycleListener: token<PluginLifecycleListener>('PluginLifecycleListener'),
  Runtime: token<PluginRuntime>('PluginRuntime'),
  /** Asked before activation; the marketplace area binds one that checks paid plugins' licenses. */
  ActivationGate: token<ActivationGate>('PluginActivationGate'),
  /** Installs `{ marketplacePluginId, version? }` bodies of the install route; bound by the marketplace area. */
  MarketplaceInstaller: token<MarketplaceInstaller>('PluginMarketplaceInstaller'),
} as const;
