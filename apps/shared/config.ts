import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { PROVIDER_IDS, type ProviderId } from '../../core/ai/domain/provider-id';
import { applyPlanSettings, PlanSettingsError } from '../../core/billing/domain/plan-settings';
import { DEFAULT_PLANS, isPlanTier, PLAN_TIERS, type Plan, type PlanTier } from '../../core/billing/domain/plans';
import { catalogPrices, type PriceTable } from '../../core/ai/domain/model-catalog';
import { applyPriceOverrides, PriceSettingsError } from '../../core/analytics/domain/prices';
import { PGLITE_MEMORY_DEFAULTS, type PGliteMemorySettings } from '../../adapters/persistence/pglite/pglite-memory';
import { tracesConfigFrom, type TracesConfig } from './traces-config';
import { PlatformError } from '../../core/shared/platform-errors';

/** The runtime contract of ARCHITECTURE.md, read once and validated at start-up. */
export interface AppConfig {
  nodeEnv: string;
  host: string;
  port: number;
  aiServicePort: number;
  marketplacePort: number;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  encryptionKey: string;
  previousEncryptionKeys: string[];
  jwtSecret: string;
  aiServiceUrl?: string;
  aiServiceToken: string;
  /** CORE_API_URL: where the AI service reaches the core API to run the tool calls it cannot run itself (docs/tools.md). */
  coreApiUrl?: string;
  /** MARKETPLACE_URL; '' when set empty (no marketplace), undefined when not set at all. */
  marketplaceUrl?: string;
  /** The core API's bearer token at the marketplace service, and the key that signs the acting user (MARKETPLACE_TOKEN). */
  marketplaceToken: string;
  providerKeys: Partial<Record<ProviderId, string>>;
  providerBaseUrls: Partial<Record<ProviderId, string>>;
  providerTimeoutMs: number;
  /** A Cohere/Jina-style `/rerank` API for knowledge retrieval (RERANK_URL, RERANK_API_KEY, RERANK_MODEL); off when unset. */
  rerank?: { url: string; apiKey?: string; model: string };
  /**
   * USAGE_HOLD_LEASE_MS: how long a token reservation outlives the process holding it (renewed every
   * third of it while the process runs; another instance gives it back once it has run out).
   */
  usageHoldLeaseMs: number;
  /**
   * WEBHOOK_DELIVERY_LEASE_MS: how long a sender holds a webhook delivery it is sending; a delivery whose sender
   * died is sent again once this has passed. At least 15 s (the delivery's 10 s timeout and a margin).
   */
  webhookDeliveryLeaseMs: number;
  adminEmails: string[];
  logLevel: string;
  smtpUrl?: string;
  publicBaseUrl?: string;
  /** Trust `X-Forwarded-*` (client address, protocol, host) from a reverse proxy in front (TRUST_PROXY). */
  trustProxy: boolean;
  /** Requests per minute one client address may make to the unauthenticated auth endpoints. */
  authRateLimitPerMinute: number;
  /** How long cached reads (users, applications, default configs, plans) are trusted; 0 turns the cache off. */
  cacheTtlMs: number;
  /** Run the embedded PGlite on a worker thread of its own (PGLITE_THREAD, on by default). */
  pgliteThread: boolean;
  /** The embedded PGlite's memory (PGLITE_SHARED_BUFFERS_MB, PGLITE_WORK_MEM_MB, PGLITE_MAINTENANCE_WORK_MEM_MB). */
  pgliteMemory: PGliteMemorySettings;
  /** Characters of conversation history each chat engine keeps in memory (HISTORY_CACHE_MB, about 2 bytes each). */
  historyCacheChars: number;
  /** Entries the in-process cache keeps at most (CACHE_MAX_ENTRIES), least recently stored out first. */
  cacheMaxEntries: number;
  /** The plans on offer: the defaults, or those of the JSON file at PLANS_FILE over them. */
  plans: Record<PlanTier, Plan>;
  /** DEFAULT_PLAN: the plan a new account gets (free unless set); admins are never held to a plan. */
  defaultPlan: PlanTier;
  /** Custom domains: resolvers for verification (DNS_SERVERS), names nobody may claim (RESERVED_DOMAINS), the CNAME target. */
  dnsServers: string[];
  reservedDomains: string[];
  customDomainTarget?: string;
  /**
   * Plugin sandbox limits (EXTENSIONS.md): PLUGIN_MEMORY_MB, PLUGIN_HOOK_TIMEOUT_MS, PLUGIN_KV_MAX_KEYS, and
   * PLUGIN_MAX_ISOLATES (installations loaded at once in this process; the least recently used is unloaded).
   */
  plugins: { memoryMb: number; hookTimeoutMs: number; kvMaxKeys: number; maxIsolates: number };
  /** Secrets generated into DATA_DIR this start (development only), to say so in the log. */
  generatedSecrets: string[];
  /** Webhook URLs may use http: (WEBHOOKS_ALLOW_HTTP, development only). */
  webhooksAllowHttp: boolean;
  /** Private ranges webhooks may reach all the same (WEBHOOKS_ALLOWED_PRIVATE_CIDRS, comma-separated CIDRs). */
  webhooksAllowedPrivateCidrs: string[];
  /**
   * The same two rules for http tools, MCP servers and workflow `http` steps: OUTBOUND_ALLOW_HTTP and
   * OUTBOUND_ALLOWED_PRIVATE_CIDRS, the WEBHOOKS_* names still read where these are unset (aliases).
   */
  outboundAllowHttp: boolean;
  outboundAllowedPrivateCidrs: string[];
  /**
   * Connections (docs/connections.md): CONNECTIONS_ALLOW_HTTP lets their base URLs use http:, and
   * CONNECTIONS_ALLOWED_PRIVATE_CIDRS names the private ranges they may reach (`127.0.0.1/32` for an Ollama
   * on the same host). Nothing else governs connections.
   */
  connectionsAllowHttp: boolean;
  connectionsAllowedPrivateCidrs: string[];
  /** The bearer token `/metrics` requires (METRICS_TOKEN); unset, the endpoint answers 404. */
  metricsToken?: string;
  /** Model prices for cost estimates: the catalogue's, with those of the JSON file at MODEL_PRICES_FILE over them. */
  modelPrices: PriceTable;
  /** How often counted analytics events are written to the rollup (ANALYTICS_FLUSH_MS). */
  analyticsFlushMs: number;
  /** Payments through Stripe (STRIPE_*); unset without STRIPE_SECRET_KEY: payment endpoints answer 503. */
  stripe?: StripeConfig;
  /** Sign-in with GitHub and Google (each offered when its client id and secret are set) and where it lands. */
  oauth: OAuthConfig;
  /** Team SSO: `http:` OIDC issuers (SSO_ALLOW_HTTP, development only) and private ranges issuers may be in. */
  sso: { allowHttp: boolean; allowedPrivateCidrs: string[] };
  /** Traces of chat turns and their OTLP export (TRACES_ENABLED, TRACE_RETENTION_DAYS, OTEL_*); absent: on, 30 days, no export. */
  traces?: TracesConfig;
}

/** STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, the prices of the plans and of overage, the meter, STRIPE_API_BASE. */
export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  prices: { starter?: string; pro?: string; enterprise?: string };
  overagePrices: { starter?: string; pro?: string };
  meterEventName: string;
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
}

export interface OAuthConfig {
  github?: { clientId: string; clientSecret: string };
  google?: { clientId: string; clientSecret: string };
  /** GITHUB_BASE_URL, GITHUB_API_URL, GOOGLE_ISSUER_URL: the providers' addresses (tests point them at fakes). */
  githubBaseUrl: string;
  githubApiUrl: string;
  googleIssuer: string;
  /** OAUTH_SUCCESS_URL: where a finished OAuth or SSO login sends the browser with its one-time code. */
  successUrl?: string;
}

/**
 * The console's absolute address, for links sent to people (mails, payment return pages): PUBLIC_BASE_URL, else
 * where the core API listens (a wildcard host as localhost). Never the request's Host header, which a client
 * chooses: a reset link must not point at an address the requester picked.
 */
export function consoleBaseUrl(config: Pick<AppConfig, 'publicBaseUrl' | 'host' | 'port'>): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** A bad environment value: the process stops with this one line. */
export class ConfigError extends PlatformError {
  readonly failure = 'config' as const;
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const HEX64 = /^[0-9a-fA-F]{64}$/;

export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = env.NODE_ENV ?? 'development';
  const production = nodeEnv === 'production';
  const dataDir = resolve(env.DATA_DIR || './data');
  const generatedSecrets: string[] = [];

  const secret = (name: string, validate?: (v: string) => string | undefined): string => {
    const given = env[name];
    if (given !== undefined && given !== '') {
      const problem = validate?.(given);
      if (problem) throw new ConfigError(`${name} ${problem}`);
      return given;
    }
    if (production) throw new ConfigError(`${name} is required when NODE_ENV=production`);
    return devSecret(dataDir, name, generatedSecrets);
  };

  const providerKeys: AppConfig['providerKeys'] = {};
  const providerBaseUrls: AppConfig['providerBaseUrls'] = {};
  for (const id of PROVIDER_IDS) {
    const prefix = id.toUpperCase();
    if (env[`${prefix}_API_KEY`]) providerKeys[id] = env[`${prefix}_API_KEY`];
    const baseUrl = env[`${prefix}_BASE_URL`];
    if (baseUrl) providerBaseUrls[id] = url(`${prefix}_BASE_URL`, baseUrl);
  }

  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const hex64 = (v: string) => (HEX64.test(v) ? undefined : 'must be 64 hexadecimal characters');
  return {
    nodeEnv,
    host: env.HOST || '127.0.0.1',
    port: port('PORT', env.PORT, 3000),
    aiServicePort: port('AI_SERVICE_PORT', env.AI_SERVICE_PORT, 3001),
    marketplacePort: port('MARKETPLACE_PORT', env.MARKETPLACE_PORT, 3002),
    dataDir,
    databaseUrl: env.DATABASE_URL ? url('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']) : undefined,
    redisUrl: env.REDIS_URL ? url('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']) : undefined,
    encryptionKey: secret('ENCRYPTION_KEY', hex64),
    previousEncryptionKeys: (env.PREVIOUS_ENCRYPTION_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => {
        if (k && !HEX64.test(k)) throw new ConfigError('PREVIOUS_ENCRYPTION_KEYS must be 64-hex keys separated by commas');
        return k !== '';
      }),
    jwtSecret: secret('JWT_SECRET', (v) => (v.length >= 32 ? undefined : 'must be at least 32 characters')),
    aiServiceUrl: env.AI_SERVICE_URL ? url('AI_SERVICE_URL', env.AI_SERVICE_URL) : undefined,
    aiServiceToken: secret('AI_SERVICE_TOKEN', (v) => (v.length >= 16 ? undefined : 'must be at least 16 characters')),
    coreApiUrl: env.CORE_API_URL ? url('CORE_API_URL', env.CORE_API_URL) : undefined,
    // Set but empty is kept as '': no marketplace, and `npm start` must not point it at its own service then.
    marketplaceUrl: env.MARKETPLACE_URL ? url('MARKETPLACE_URL', env.MARKETPLACE_URL) : env.MARKETPLACE_URL === '' ? '' : undefined,
    marketplaceToken: secret('MARKETPLACE_TOKEN', (v) => (v.length >= 16 ? undefined : 'must be at least 16 characters')),
    providerKeys,
    providerBaseUrls,
    providerTimeoutMs: positiveInt('PROVIDER_TIMEOUT_MS', env.PROVIDER_TIMEOUT_MS, 60_000),
    rerank: env.RERANK_URL ? { url: url('RERANK_URL', env.RERANK_URL), apiKey: env.RERANK_API_KEY || undefined, model: env.RERANK_MODEL || 'rerank-english-v3.0' } : undefined,
    usageHoldLeaseMs: atLeast('USAGE_HOLD_LEASE_MS', positiveInt('USAGE_HOLD_LEASE_MS', env.USAGE_HOLD_LEASE_MS, 30_000), 1_000),
    webhookDeliveryLeaseMs: atLeast('WEBHOOK_DELIVERY_LEASE_MS', positiveInt('WEBHOOK_DELIVERY_LEASE_MS', env.WEBHOOK_DELIVERY_LEASE_MS, 60_000), 15_000),
    adminEmails: (env.ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean),
    logLevel,
    smtpUrl: env.SMTP_URL ? url('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']) : undefined,
    publicBaseUrl: env.PUBLIC_BASE_URL ? url('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL) : undefined,
    trustProxy: onOff('TRUST_PROXY', env.TRUST_PROXY, false),
    authRateLimitPerMinute: positiveInt('AUTH_RATE_LIMIT_PER_MINUTE', env.AUTH_RATE_LIMIT_PER_MINUTE, 30),
    cacheTtlMs: wholeNumber('CACHE_TTL_MS', env.CACHE_TTL_MS, 10_000),
    pgliteThread: pgliteThreadSetting(env),
    pgliteMemory: {
      sharedBuffersMb: boundedInt('PGLITE_SHARED_BUFFERS_MB', env.PGLITE_SHARED_BUFFERS_MB, PGLITE_MEMORY_DEFAULTS.sharedBuffersMb, 1, 4096),
      workMemMb: boundedInt('PGLITE_WORK_MEM_MB', env.PGLITE_WORK_MEM_MB, PGLITE_MEMORY_DEFAULTS.workMemMb, 1, 1024),
      maintenanceWorkMemMb: boundedInt('PGLITE_MAINTENANCE_WORK_MEM_MB', env.PGLITE_MAINTENANCE_WORK_MEM_MB, PGLITE_MEMORY_DEFAULTS.maintenanceWorkMemMb, 1, 4096),
    },
    historyCacheChars: wholeNumber('HISTORY_CACHE_MB', env.HISTORY_CACHE_MB, 16) * 500_000,
    cacheMaxEntries: positiveInt('CACHE_MAX_ENTRIES', env.CACHE_MAX_ENTRIES, 20_000),
    plans: plansFrom(env.PLANS_FILE),
    defaultPlan: defaultPlan(env.DEFAULT_PLAN),
    dnsServers: list(env.DNS_SERVERS),
    reservedDomains: list(env.RESERVED_DOMAINS).map((d) => d.toLowerCase()),
    customDomainTarget: env.CUSTOM_DOMAIN_TARGET?.trim().toLowerCase().replace(/\.$/, '') || undefined,
    plugins: {
      memoryMb: positiveInt('PLUGIN_MEMORY_MB', env.PLUGIN_MEMORY_MB, 64),
      hookTimeoutMs: positiveInt('PLUGIN_HOOK_TIMEOUT_MS', env.PLUGIN_HOOK_TIMEOUT_MS, 50),
      kvMaxKeys: positiveInt('PLUGIN_KV_MAX_KEYS', env.PLUGIN_KV_MAX_KEYS, 10_000),
      maxIsolates: positiveInt('PLUGIN_MAX_ISOLATES', env.PLUGIN_MAX_ISOLATES, 32),
    },
    generatedSecrets,
    webhooksAllowHttp: onOff('WEBHOOKS_ALLOW_HTTP', env.WEBHOOKS_ALLOW_HTTP, false),
    webhooksAllowedPrivateCidrs: cidrs('WEBHOOKS_ALLOWED_PRIVATE_CIDRS', env.WEBHOOKS_ALLOWED_PRIVATE_CIDRS),
    outboundAllowHttp:
      env.OUTBOUND_ALLOW_HTTP !== undefined ? onOff('OUTBOUND_ALLOW_HTTP', env.OUTBOUND_ALLOW_HTTP, false) : onOff('WEBHOOKS_ALLOW_HTTP', env.WEBHOOKS_ALLOW_HTTP, false),
    outboundAllowedPrivateCidrs:
      env.OUTBOUND_ALLOWED_PRIVATE_CIDRS !== undefined
        ? cidrs('OUTBOUND_ALLOWED_PRIVATE_CIDRS', env.OUTBOUND_ALLOWED_PRIVATE_CIDRS)
        : cidrs('WEBHOOKS_ALLOWED_PRIVATE_CIDRS', env.WEBHOOKS_ALLOWED_PRIVATE_CIDRS),
    connectionsAllowHttp: onOff('CONNECTIONS_ALLOW_HTTP', env.CONNECTIONS_ALLOW_HTTP, false),
    connectionsAllowedPrivateCidrs: cidrs('CONNECTIONS_ALLOWED_PRIVATE_CIDRS', env.CONNECTIONS_ALLOWED_PRIVATE_CIDRS),
    stripe: stripeFrom(env),
    metricsToken: metricsToken(env.METRICS_TOKEN),
    modelPrices: pricesFrom(env.MODEL_PRICES_FILE),
    analyticsFlushMs: positiveInt('ANALYTICS_FLUSH_MS', env.ANALYTICS_FLUSH_MS, 5000),
    oauth: {
      github: oauthClient(env, 'GITHUB'),
      google: oauthClient(env, 'GOOGLE'),
      githubBaseUrl: env.GITHUB_BASE_URL ? url('GITHUB_BASE_URL', env.GITHUB_BASE_URL) : 'https://github.com',
      githubApiUrl: env.GITHUB_API_URL ? url('GITHUB_API_URL', env.GITHUB_API_URL) : 'https://api.github.com',
      googleIssuer: env.GOOGLE_ISSUER_URL ? url('GOOGLE_ISSUER_URL', env.GOOGLE_ISSUER_URL) : 'https://accounts.google.com',
      successUrl: env.OAUTH_SUCCESS_URL ? url('OAUTH_SUCCESS_URL', env.OAUTH_SUCCESS_URL) : undefined,
    },
    sso: {
      allowHttp: onOff('SSO_ALLOW_HTTP', env.SSO_ALLOW_HTTP, false),
      allowedPrivateCidrs: cidrs('SSO_ALLOWED_PRIVATE_CIDRS', env.SSO_ALLOWED_PRIVATE_CIDRS),
    },
    traces: tracesConfigFrom(env, (message) => new ConfigError(message)),
  };
}

/** `<PREFIX>_CLIENT_ID` and `_CLIENT_SECRET`: both (the provider is offered) or neither. */
function oauthClient(env: Env, prefix: string): { clientId: string; clientSecret: string } | undefined {
  const clientId = env[`${prefix}_CLIENT_ID`]?.trim();
  const clientSecret = env[`${prefix}_CLIENT_SECRET`]?.trim();
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) throw new ConfigError(`${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET must be set together`);
  return { clientId, clientSecret };
}

/** DEFAULT_PLAN: one of the plan ids; unset = free. */
function defaultPlan(raw: string | undefined): PlanTier {
  const value = raw?.trim().toLowerCase();
  if (!value) return 'free';
  if (!isPlanTier(value)) throw new ConfigError(`DEFAULT_PLAN must be one of ${PLAN_TIERS.join(', ')}, not ${JSON.stringify(raw)}`);
  return value;
}

/** PLANS_FILE: a JSON file of plans (`core/billing/domain/plan-settings.ts`); unset = the default plans. */
function plansFrom(path: string | undefined): Record<PlanTier, Plan> {
  if (path === undefined || path === '') return { ...DEFAULT_PLANS };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`PLANS_FILE cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')}): ${path}`);
  }
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`PLANS_FILE is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return applyPlanSettings(DEFAULT_PLANS, settings);
  } catch (error) {
    if (error instanceof PlanSettingsError) throw new ConfigError(`PLANS_FILE: ${error.message}`);
    throw error;
  }
}
function stripeFrom(env: Env): StripeConfig | undefined {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  if (!secretKey) return undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (!webhookSecret) throw new ConfigError('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set (the webhook signing secret, whsec_…)');
  const price = (name: string): string | undefined => {
    const value = env[name]?.trim();
    if (!value) return undefined;
    if (!/^price_[A-Za-z0-9_]+$/.test(value)) throw new ConfigError(`${name} must be a Stripe price id (price_…)`);
    return value;
  };
  const meterEventName = env.STRIPE_METER_EVENT?.trim() || 'platform_overage_tokens';
  if (!/^[A-Za-z0-9_.:-]{1,100}$/.test(meterEventName)) throw new ConfigError('STRIPE_METER_EVENT must be a meter event name (letters, digits, _ . : -)');
  let apiBase: StripeConfig['apiBase'];
  if (env.STRIPE_API_BASE) {
    const parsed = new URL(url('STRIPE_API_BASE', env.STRIPE_API_BASE));
    const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
    apiBase = { protocol, host: parsed.hostname.replace(/^\[|\]$/g, ''), port: parsed.port ? Number(parsed.port) : protocol === 'http' ? 80 : 443 };
  }
  const prices = { starter: price('STRIPE_PRICE_STARTER'), pro: price('STRIPE_PRICE_PRO'), enterprise: price('STRIPE_PRICE_ENTERPRISE') };
  if (!prices.starter && !prices.pro && !prices.enterprise) throw new ConfigError('STRIPE_SECRET_KEY is set but no plan has a price: set STRIPE_PRICE_STARTER, STRIPE_PRICE_PRO or STRIPE_PRICE_ENTERPRISE');
  return {
    secretKey,
    webhookSecret,
    prices,
    overagePrices: { starter: price('STRIPE_PRICE_OVERAGE_STARTER'), pro: price('STRIPE_PRICE_OVERAGE_PRO') },
    meterEventName,
    apiBase,
  };
}

/** METRICS_TOKEN: at least 16 characters, so a scraper's token is not guessable. */
function metricsToken(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || /\s/.test(raw)) throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  return raw;
}

/** MODEL_PRICES_FILE: a JSON file of model prices (`core/analytics/domain/prices.ts`); unset = the catalogue's. */
function pricesFrom(path: string | undefined): PriceTable {
  if (path === undefined || path === '') return catalogPrices();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(`MODEL_PRICES_FILE cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? 'error')}): ${path}`);
  }
  let settings: unknown;
  try {
    settings = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`MODEL_PRICES_FILE is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return applyPriceOverrides(settings);
  } catch (error) {
    if (error instanceof PriceSettingsError) throw new ConfigError(`MODEL_PRICES_FILE: ${error.message}`);
    throw error;
  }
}
const list = (raw: string | undefined): string[] => (raw ?? '').split(',').map((v) => v.trim()).filter(Boolean);
function cidrs(name: string, raw: string | undefined): string[] {
  const list = (raw ?? '').split(',').map((c) => c.trim()).filter(Boolean);
  for (const cidr of list) {
    const [address, bits, extra] = cidr.split('/');
    const family = isIP(address ?? '');
    const max = family === 4 ? 32 : 128;
    if (!family || extra !== undefined || bits === undefined || !/^\d+$/.test(bits) || Number(bits) > max) {
      throw new ConfigError(`${name} must be CIDR ranges separated by commas (e.g. 10.1.0.0/16), not ${cidr}`);
    }
  }
  return list;
}

function port(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new ConfigError(`${name} must be a port number (0-65535)`);
  return value;
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ConfigError(`${name} must be a positive whole number`);
  return value;
}

function atLeast(name: string, value: number, minimum: number): number {
  if (value < minimum) throw new ConfigError(`${name} must be at least ${minimum}`);
  return value;
}

function boundedInt(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function wholeNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a whole number (0 or more)`);
  return value;
}

/** PGLITE_THREAD: on (the default) or off; read apart too by the benches that open the database themselves. */
export function pgliteThreadSetting(env: NodeJS.ProcessEnv = process.env): boolean {
  return onOff('PGLITE_THREAD', env.PGLITE_THREAD, true);
}

function onOff(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1'].includes(raw.toLowerCase())) return true;
  if (['off', 'false', '0'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be on or off`);
}

function url(name: string, raw: string, protocols = ['http:', 'https:']): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must use ${protocols.join(' or ')}`);
  return raw.replace(/\/+$/, '');
}

/** Development convenience: a secret generated once, kept in DATA_DIR/secrets with mode 0600. */
function devSecret(dataDir: string, name: string, generated: string[]): string {
  const dir = join(dataDir, 'secrets');
  const file = join(dir, name.toLowerCase());
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('hex');
  writeFileSync(file, value + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  generated.push(name);
  return value;
}
