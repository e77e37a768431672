/**
 * Traces of chat turns (docs/observability.md): TRACES_ENABLED, TRACE_RETENTION_DAYS, the content opt-in and the
 * standard OpenTelemetry variables of the OTLP export. Read here, passed down (adapters read no environment).
 */
export interface OtlpExportConfig {
  /** Where spans are posted: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, or OTEL_EXPORTER_OTLP_ENDPOINT + `/v1/traces`. */
  url: string;
  protocol: 'http/json' | 'http/protobuf';
  headers: Record<string, string>;
  /** OTEL_SERVICE_NAME; unset, the app's own name (core-api, ai-service). */
  serviceName?: string;
  /** OTEL_RESOURCE_ATTRIBUTES. */
  resourceAttributes: Record<string, string>;
  sampler: { name: 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio'; ratio: number };
  timeoutMs: number;
}

export interface TracesConfig {
  /** TRACES_ENABLED (default true): record a trace of every chat turn. */
  enabled: boolean;
  /** TRACE_RETENTION_DAYS (default 30). */
  retentionDays: number;
  /** OTEL_GENAI_CAPTURE_CONTENT=true: message text on model rounds, and content attributes in the OTLP export. */
  captureContent: boolean;
  /** Set when an OTLP endpoint is configured (and OTEL_SDK_DISABLED is not true). */
  otlp?: OtlpExportConfig;
}

type Env = Record<string, string | undefined>;
const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/** Reads the traces' settings; a bad value throws `fail`'s error (the process stops with one line). */
export function tracesConfigFrom(env: Env, fail: (message: string) => Error): TracesConfig {
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['true', '1', 'on', 'yes'].includes(raw)) return true;
    if (['false', '0', 'off', 'no'].includes(raw)) return false;
    throw fail(`${name} must be true or false`);
  };
  const days = env.TRACE_RETENTION_DAYS?.trim() ? Number(env.TRACE_RETENTION_DAYS) : 30;
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw fail('TRACE_RETENTION_DAYS must be a whole number of days from 1 to 3650');
  const config: TracesConfig = { enabled: bool('TRACES_ENABLED', true), retentionDays: days, captureContent: bool('OTEL_GENAI_CAPTURE_CONTENT', false) };
  if (bool('OTEL_SDK_DISABLED', false)) return config;
  const specific = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const general = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!specific && !general) return config;
  const url = specific || `${general!.replace(/\/+$/, '')}/v1/traces`;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    throw fail(`${specific ? 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' : 'OTEL_EXPORTER_OTLP_ENDPOINT'} must be an http or https URL`);
  }
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf').toLowerCase();
  if (protocol !== 'http/json' && protocol !== 'http/protobuf') throw fail('OTEL_EXPORTER_OTLP_PROTOCOL must be http/json or http/protobuf (grpc is not supported)');
  const sampler = (env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || 'parentbased_always_on') as OtlpExportConfig['sampler']['name'];
  if (!SAMPLERS.includes(sampler)) throw fail(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}`);
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim() ? Number(env.OTEL_TRACES_SAMPLER_ARG) : 1;
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) throw fail('OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1');
  const timeout = env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT?.trim() || env.OTEL_EXPORTER_OTLP_TIMEOUT?.trim();
  const timeoutMs = timeout ? Number(timeout) : 10_000;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw fail('OTEL_EXPORTER_OTLP_TIMEOUT must be a whole number of milliseconds');
  return {
    ...config,
    otlp: {
      url,
      protocol,
      headers: { ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS), ...keyValues(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
      serviceName: env.OTEL_SERVICE_NAME?.trim() || undefined,
      resourceAttributes: keyValues(env.OTEL_RESOURCE_ATTRIBUTES),
      sampler: { name: sampler, ratio },
      timeoutMs,
    },
  };
}

/** `key1=value1,key2=value2`, values percent-encoded (the W3C Baggage form the OTEL_* lists use); malformed pairs are skipped. */
function keyValues(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    let value = pair.slice(at + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      continue;
    }
    if (key && Object.keys(out).length < 64) out[key] = value;
  }
  return out;
}
