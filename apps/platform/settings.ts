import { PROVIDER_IDS } from '../../core/ai/domain/provider-id';
import { ConfigError, loadConfig, type AppConfig } from '../shared/config';

export type ProviderPrefix = Uppercase<(typeof PROVIDER_IDS)[number]>;

/**
 * The names of the runtime contract's settings (the README's table), the same the apps read from their
 * environment. A platform embedded in another program is given them as values: nothing is read from
 * `process.env`.
 */
export type PlatformSettingName =
  | 'NODE_ENV' | 'HOST' | 'PORT' | 'AI_SERVICE_PORT' | 'MARKETPLACE_PORT' | 'DATA_DIR' | 'DATABASE_URL' | 'REDIS_URL'
  | 'ENCRYPTION_KEY' | 'PREVIOUS_ENCRYPTION_KEYS' | 'JWT_SECRET' | 'AI_SERVICE_URL' | 'AI_SERVICE_TOKEN'
  | 'MARKETPLACE_URL' | 'MARKETPLACE_TOKEN' | `${ProviderPrefix}_API_KEY` | `${ProviderPrefix}_BASE_URL`
  | 'PROVIDER_TIMEOUT_MS' | 'USAGE_HOLD_LEASE_MS' | 'ADMIN_EMAILS' | 'LOG_LEVEL' | 'SMTP_URL' | 'PUBLIC_BASE_URL'
  | 'TRUST_PROXY' | 'AUTH_RATE_LIMIT_PER_MINUTE' | 'CACHE_TTL_MS' | 'CACHE_MAX_ENTRIES' | 'HISTORY_CACHE_MB'
  | 'PGLITE_THREAD' | 'PGLITE_SHARED_BUFFERS_MB' | 'PGLITE_WORK_MEM_MB' | 'PGLITE_MAINTENANCE_WORK_MEM_MB'
  | 'PLANS_FILE' | 'DEFAULT_PLAN' | 'MODEL_PRICES_FILE' | 'DNS_SERVERS' | 'RESERVED_DOMAINS' | 'CUSTOM_DOMAIN_TARGET'
  | 'PLUGIN_MEMORY_MB' | 'PLUGIN_HOOK_TIMEOUT_MS' | 'PLUGIN_KV_MAX_KEYS' | 'PLUGIN_MAX_ISOLATES'
  | 'WEBHOOKS_ALLOW_HTTP' | 'WEBHOOKS_ALLOWED_PRIVATE_CIDRS' | 'METRICS_TOKEN' | 'ANALYTICS_FLUSH_MS'
  | 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_BASE' | 'STRIPE_METER_EVENT' | `STRIPE_PRICE_${string}`
  | 'GITHUB_CLIENT_ID' | 'GITHUB_CLIENT_SECRET' | 'GOOGLE_CLIENT_ID' | 'GOOGLE_CLIENT_SECRET'
  | 'GITHUB_BASE_URL' | 'GITHUB_API_URL' | 'GOOGLE_ISSUER_URL' | 'OAUTH_SUCCESS_URL'
  | 'SSO_ALLOW_HTTP' | 'SSO_ALLOWED_PRIVATE_CIDRS';

/** Settings by name, as strings (as they would be in the environment); unset names take their defaults. */
export type PlatformSettings = { [Name in PlatformSettingName]?: string | undefined };

/** The validated configuration the apps run on (what `loadConfig` makes of the environment). */
export type PlatformConfig = AppConfig;

/**
 * Validates settings given as values with the apps' own rules (one place reads configuration), and answers
 * the configuration `createPlatform` takes. A bad value throws a `ConfigError` naming the setting.
 */
export function platformConfig(settings: PlatformSettings): PlatformConfig {
  if (settings === null || typeof settings !== 'object') throw new ConfigError('settings must be an object of setting names to strings');
  for (const [name, value] of Object.entries(settings)) {
    if (value !== undefined && typeof value !== 'string') throw new ConfigError(`${name} must be a string`);
    // In an environment an empty variable means unset; a program that passes '' meant something else.
    if (value !== undefined && value.trim() === '') throw new ConfigError(`${name} is empty: leave it out for its default, or give it a value`);
  }
  return loadConfig({ ...settings });
}

/** A configuration from either form `createPlatform` accepts. */
export function toPlatformConfig(config: PlatformConfig | PlatformSettings): PlatformConfig {
  return isValidated(config) ? config : platformConfig(config);
}

function isValidated(config: PlatformConfig | PlatformSettings): config is PlatformConfig {
  return typeof (config as PlatformConfig).encryptionKey === 'string' && typeof (config as PlatformConfig).port === 'number';
}

/** The secrets of a configuration, which `platform.config` leaves out. */
export type SecretField = 'encryptionKey' | 'previousEncryptionKeys' | 'jwtSecret' | 'aiServiceToken' | 'marketplaceToken' | 'providerKeys' | 'metricsToken' | 'stripe' | 'oauth' | 'generatedSecrets';

/**
 * The configuration a platform runs on, as a program embedding it may read it: no keys, tokens or secrets, and
 * the URLs (database, Redis, SMTP) without their credentials.
 */
export type PlatformConfigView = Readonly<Omit<PlatformConfig, SecretField>> & {
  /** Which providers have a platform key configured (the keys themselves are not shown). */
  readonly providersWithKeys: readonly string[];
  /** Whether payments are configured (STRIPE_SECRET_KEY). */
  readonly paymentsConfigured: boolean;
};

/** The configuration without its secrets (`platform.config`). */
export function publicConfigOf(config: PlatformConfig): PlatformConfigView {
  const {
    encryptionKey: _k,
    previousEncryptionKeys: _p,
    jwtSecret: _j,
    aiServiceToken: _a,
    marketplaceToken: _m,
    providerKeys,
    metricsToken: _t,
    stripe,
    oauth: _o,
    generatedSecrets: _g,
    ...rest
  } = config;
  return Object.freeze({
    ...rest,
    databaseUrl: withoutCredentials(rest.databaseUrl),
    redisUrl: withoutCredentials(rest.redisUrl),
    smtpUrl: withoutCredentials(rest.smtpUrl),
    providersWithKeys: Object.keys(providerKeys).filter((id) => providerKeys[id as keyof typeof providerKeys]),
    paymentsConfigured: stripe !== undefined,
  });
}

function withoutCredentials(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    if (!parsed.username && !parsed.password) return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return undefined;
  }
}
