import type { RequestListener } from 'node:http';
import type { Database } from '../../adapters/persistence/data-source';
import type { Logger } from '../../adapters/logging/logger';
import type { CoreApiOptions } from '../core-api/core-api.container';
import type { MarketplaceModuleOptions } from '../marketplace/modules/marketplace.module';
import type { AppModule } from '../shared/app-module';
import type { ComposedApp } from '../shared/compose';
import type { Infrastructure } from '../shared/infrastructure';
import type { Listening } from '../shared/serve';
import { applyPlanSettings } from '../../core/billing/domain/plan-settings';
import { isPlanTier, PLAN_TIERS, type Plan, type PlanTier } from '../../core/billing/domain/plans';
import { PlatformClosedError } from '../../core/shared/platform-errors';
import { ConfigError } from '../shared/config';
import { adapterOverrides } from './adapters';
import type { PlatformAdapters } from './adapter-ports';
import { mountAt, normalizeBasePath, type MountOptions } from './mount';
import { publicConfigOf, toPlatformConfig, type PlatformConfig, type PlatformConfigView, type PlatformSettings } from './settings';
import { closedGuard } from './use-cases';
import { facadeOf } from './facade';
import type { PlatformUseCases } from './public-api';

/**
 * The composition's modules (the services, the infrastructure, every heavy adapter), loaded when `createPlatform`
 * first runs: importing the library, as a test using `createInMemoryPlatform` does, loads none of them.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const composition = (): typeof import('./composition') => require('./composition') as typeof import('./composition');

/** The services a platform can compose: the REST API, the AI service, the marketplace catalog. */
export type PlatformService = 'core-api' | 'ai-service' | 'marketplace';

export interface PlatformOptions {
  /** The configuration: validated (`platformConfig`, or the apps' `loadConfig`) or settings by name to validate. */
  config: PlatformConfig | PlatformSettings;
  /** Which services to compose (default: the core API alone, which holds the use cases). */
  services?: readonly PlatformService[];
  /** Adapters to use in place of the configured ones, for the ports named in `PlatformAdapters`. */
  adapters?: PlatformAdapters;
  /** Where the core API's chat engine runs (default: over HTTP when AI_SERVICE_URL is set, in this process otherwise). */
  chatEngine?: 'from-config' | 'in-process';
  /** Cheaper password hashing (argon2 parameters), for tests. */
  passwordHashing?: { memoryCost: number; timeCost: number; parallelism: number };
  /** A shorter access-token life (seconds). */
  accessTokenTtlSeconds?: number;
  /**
   * A pino logger for the platform's logs (access logs, errors, background work). Without one an embedded
   * platform logs nothing: the program embedding it owns stdout.
   */
  logger?: Logger;
  /**
   * The plans on offer, each given in full, over the platform's defaults for the ids left out (what PLANS_FILE
   * holds). Checked as PLANS_FILE is: a `ConfigError` names the field.
   */
  plans?: Partial<Record<PlanTier, PlanDefinition>>;
  /** The plan a new account starts on (DEFAULT_PLAN; `free` unless set). Admins are not held to any plan. */
  defaultPlan?: PlanTier;
  /** E-mails of the accounts that hold the Admin role (ADMIN_EMAILS): not held to plan limits. */
  adminEmails?: readonly string[];
  /** How `platform.http`'s listeners are mounted: the path prefix they answer under. */
  http?: MountOptions;
  /**
   * Serves the web console from the core API's listener (at `/`, or under `http.basePath`) when it has been built
   * (default: off for an embedded platform; the platform's own processes turn it on).
   */
  console?: boolean;
  /** @internal An open database in place of the one the configuration names (the tests' shared database). */
  database?: Database;
  /** @internal Infrastructure opened by the caller, which stays open when the platform closes. */
  infrastructure?: Infrastructure;
  /** @internal The marketplace service's own options (the seed's). */
  marketplace?: MarketplaceModuleOptions;
  /**
   * Listens each composed service on `host` and its configured port (PORT, AI_SERVICE_PORT, MARKETPLACE_PORT)
   * as soon as it is composed; the core API comes last and, without MARKETPLACE_URL, uses the marketplace
   * served here. What the apps' processes do.
   */
  serve?: { host?: string } | boolean;
}

/** A plan as `plans` sets it (what PLANS_FILE holds per plan id): every field, the id being the key. */
export type PlanDefinition = Omit<Plan, 'tier'>;

export interface Platform extends PlatformUseCases {
  /** The configuration the platform runs on, without its secrets (keys, tokens, credentials in URLs). */
  readonly config: PlatformConfigView;
  /**
   * The composed services' HTTP APIs as Node request listeners (the same routes, middleware and error bodies
   * as the apps serve), to pass to `http.createServer` or mount in another server.
   */
  readonly http: Readonly<Partial<Record<PlatformService, RequestListener>>>;
  /** @internal The composed services, with their containers. */
  readonly services: Readonly<Partial<Record<PlatformService, ComposedApp>>>;
  /** Where each service started with `serve` listens (`http://host:port`). */
  readonly urls: Readonly<Partial<Record<PlatformService, string>>>;
  /** @internal The servers started with `serve`, in the order they were started. */
  readonly listening: readonly Listening[];
  /** Stops the servers (letting requests finish), the services' background work, then closes the database and Redis. */
  close(): Promise<void>;
}

const PORT_OF: Record<PlatformService, 'port' | 'aiServicePort' | 'marketplacePort'> = {
  'core-api': 'port',
  'ai-service': 'aiServicePort',
  marketplace: 'marketplacePort',
};

/**
 * The core composed with its real adapters, from a configuration given as values: the one composition
 * root of the apps (`npm start` and each service's process run through it) and of programs embedding
 * the platform. Answers the use cases by area, the services' HTTP apps and `close()`.
 */
export async function createPlatform(options: PlatformOptions): Promise<Platform> {
  const { aiServiceModules, coreApiModules, marketplaceModules, composeApp, createInfrastructure, listen, shutdown, createLogger, useCasesOf } = composition();
  const services = options.services ?? ['core-api'];
  const unknown = services.filter((s) => !Object.hasOwn(PORT_OF, s));
  if (unknown.length) throw new TypeError(`Unknown service ${unknown.join(', ')}: expected core-api, ai-service or marketplace`);
  const basePath = normalizeBasePath(options.http?.basePath);
  const infra =
    options.infrastructure ??
    (await createInfrastructure(withPlanOptions(toPlatformConfig(options.config), options), {
      database: options.database,
      logger: options.logger ?? createLogger('silent'),
    }));
  if (options.infrastructure) withPlanOptions(infra.config, options);
  const config = infra.config;
  const ownsInfrastructure = !options.infrastructure;
  const serve = options.serve ? { host: (typeof options.serve === 'object' && options.serve.host) || config.host } : undefined;
  const overrides = adapterOverrides(options.adapters);
  const composed: Partial<Record<PlatformService, ComposedApp>> = {};
  const listening: Listening[] = [];

  const add = async (service: PlatformService, modules: AppModule[]) => {
    const app = await composeApp(service, infra, [...modules, overrides]);
    composed[service] = app;
    if (serve) listening.push(await listen(app, serve.host, config[PORT_OF[service]]));
    return app;
  };

  try {
    // The AI service and the marketplace first: the core API reaches the marketplace served here.
    if (services.includes('ai-service')) await add('ai-service', aiServiceModules(infra));
    if (services.includes('marketplace')) {
      await add('marketplace', marketplaceModules(infra, options.marketplace));
      const served = listening.find((l) => l.app.name === 'marketplace');
      if (served) config.marketplaceUrl ??= served.url;
    }
    if (services.includes('core-api')) {
      const coreOptions: CoreApiOptions = {
        chatEngine: options.chatEngine,
        passwordHashing: options.passwordHashing,
        accessTokenTtlSeconds: options.accessTokenTtlSeconds,
        console: options.console ?? false,
      };
      await add('core-api', coreApiModules(infra, coreOptions));
    }
  } catch (error) {
    await shutdown(listening, infra, 1_000, { closeInfrastructure: ownsInfrastructure }).catch(() => undefined);
    for (const app of Object.values(composed)) if (!listening.some((l) => l.app === app)) await app.stop().catch(() => undefined);
    throw error;
  }

  const core = composed['core-api'];
  let closing: Promise<void> | undefined;
  const isClosed = () => closing !== undefined;
  const useCases = core ? facadeOf(useCasesOf(core.container, closedGuard(isClosed))) : missingCore();
  const http: Partial<Record<PlatformService, RequestListener>> = {};
  for (const [name, app] of Object.entries(composed) as [PlatformService, ComposedApp][]) {
    http[name] = mountAt(openOnly(app.app.callback(), isClosed), basePath);
  }
  return {
    ...useCases,
    config: publicConfigOf(config),
    http: Object.freeze(http),
    services: Object.freeze({ ...composed }),
    urls: Object.freeze(Object.fromEntries(listening.map((l) => [l.app.name, l.url]))),
    listening,
    close() {
      closing ??= (async () => {
        await shutdown(listening, infra, 10_000, { closeInfrastructure: false });
        for (const app of Object.values(composed)) if (!listening.some((l) => l.app === app)) await app.stop();
        if (ownsInfrastructure) await infra.close();
      })();
      return closing;
    },
  };
}

/** A listener answering 503 once the platform is closed, instead of reaching a closed database. */
function openOnly(listener: RequestListener, isClosed: () => boolean): RequestListener {
  return (req, res) => {
    if (!isClosed()) return listener(req, res);
    const message = new PlatformClosedError('this request').message;
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ statusCode: 503, message, error: 'Service Unavailable' }));
  };
}

/** The configuration with the plan options applied (validated as PLANS_FILE and DEFAULT_PLAN are). */
function withPlanOptions(config: PlatformConfig, options: Pick<PlatformOptions, 'plans' | 'defaultPlan' | 'adminEmails'>): PlatformConfig {
  if (options.plans !== undefined) {
    try {
      config.plans = applyPlanSettings(config.plans, options.plans);
    } catch (error) {
      throw new ConfigError(`plans: ${(error as Error).message}`);
    }
  }
  if (options.defaultPlan !== undefined) {
    if (!isPlanTier(options.defaultPlan)) throw new ConfigError(`defaultPlan must be one of ${PLAN_TIERS.join(', ')}, not ${JSON.stringify(options.defaultPlan)}`);
    config.defaultPlan = options.defaultPlan;
  }
  if (options.adminEmails !== undefined) {
    if (!Array.isArray(options.adminEmails) || options.adminEmails.some((e) => typeof e !== 'string' || !e.includes('@'))) {
      throw new ConfigError('adminEmails must be a list of e-mail addresses');
    }
    config.adminEmails = [...new Set([...config.adminEmails, ...options.adminEmails.map((e) => e.trim().toLowerCase())])];
  }
  return config;
}

/** Use-case groups of a platform without the core API: each read says what is missing. */
function missingCore(): PlatformUseCases {
  return new Proxy({} as PlatformUseCases, {
    get(_target, area) {
      throw new Error(`The platform's use cases (${String(area)}) need the core-api service: include it in options.services`);
    },
  });
}
