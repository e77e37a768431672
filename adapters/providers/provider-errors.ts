import { isProviderId } from '../../core/ai/domain/provider-id';
import { providerKeyRejected } from '../../core/ai/domain/provider-key-rejection';
import { isAppError, UpstreamError, UpstreamTimeoutError } from '../../core/shared/errors';

/** A failed HTTP answer from a call made without the SDK (model listings the SDK lacks). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

const MAX_DETAIL = 300;
/** Key shapes of the four providers, masked wherever they might be echoed back. */
const KEY_LIKE = /\b(?:sk-[A-Za-z0-9_*-]{6,}|AIza[0-9A-Za-z_-]{10,}|hf_[A-Za-z0-9]{6,})/g;

/**
 * The one mapping from an SDK failure to a core error (LlmProvider contract): a refused key is
 * UpstreamError 424 naming the provider and the key's last 4 characters, a refused request 400, throttling 429, anything else (5xx, network) 502, a timeout
 * UpstreamTimeoutError. Messages name the provider and never contain the key.
 */
export function toProviderError(provider: string, error: unknown, apiKey?: string): Error {
  if (isAppError(error)) return error;
  const name = errorName(error);
  if (name === 'APIConnectionTimeoutError') return new UpstreamTimeoutError(`${provider} did not answer in time`);
  const status = statusOf(error);
  if (status === 401 || status === 403 || keyRefused(error)) {
    // A connection (docs/connections.md) is named as its owner named it; its key is fixed on its own page.
    return isProviderId(provider) ? providerKeyRejected(provider, apiKey) : new UpstreamError(`The connection ${provider} refused its key: check it under Provider keys, Connections`, 424);
  }
  if (status === 408) return new UpstreamTimeoutError(`${provider} did not answer in time`);
  const detail = describe(error, apiKey);
  if (status === 429) return new UpstreamError(`${provider} is rate limiting requests: ${detail}`, 429, retryAfterOf(error));
  if (status !== undefined && status >= 500) return new UpstreamError(`${provider} failed: ${detail}`, 502, retryAfterOf(error));
  if ((status !== undefined && status >= 400 && status < 500) || name === 'GoogleGenerativeAIResponseError') {
    return new UpstreamError(`${provider} refused the request: ${detail}`, 400);
  }
  return new UpstreamError(`${provider} failed: ${detail}`, 502);
}

/** The longest wait a provider's `Retry-After` is believed for (a bigger one is as good as "not now"). */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

/** The provider's `Retry-After` (seconds or an HTTP date) in milliseconds, from the headers the SDK kept. */
export function retryAfterOf(error: unknown, now = Date.now()): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const source = (error as { headers?: unknown }).headers ?? (error as { httpResponse?: { headers?: unknown } }).httpResponse?.headers;
  let raw: unknown;
  if (source && typeof (source as Headers).get === 'function') raw = (source as Headers).get('retry-after');
  else if (source && typeof source === 'object') raw = (source as Record<string, unknown>)['retry-after'];
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  const seconds = Number(raw.trim());
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(raw) - now;
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(Math.round(ms), MAX_RETRY_AFTER_MS);
}

function errorName(error: unknown): string {
  if (!error || typeof error !== 'object') return '';
  return (error as Error).constructor?.name ?? (error as Error).name ?? '';
}

function statusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const direct = (error as { status?: unknown }).status;
  if (typeof direct === 'number') return direct;
  // @huggingface/inference keeps the answer on `httpResponse`.
  const nested = (error as { httpResponse?: { status?: unknown } }).httpResponse?.status;
  return typeof nested === 'number' ? nested : undefined;
}

/** Gemini answers a wrong key with 400 and the reason API_KEY_INVALID. */
function keyRefused(error: unknown): boolean {
  const details = (error as { errorDetails?: unknown } | null)?.errorDetails;
  return Array.isArray(details) && details.some((d) => (d as { reason?: unknown } | null)?.reason === 'API_KEY_INVALID');
}

/** The provider's own explanation, stripped of URLs, SDK prefixes and anything key-like. */
function describe(error: unknown, apiKey?: string): string {
  let text = networkProblem(error) ?? providerMessage(error);
  if (apiKey) text = text.split(apiKey).join('[redacted]');
  text = text.replace(KEY_LIKE, '[redacted]').replace(/https?:\/\/\S+/g, '<url>').replace(/\s+/g, ' ').trim();
  if (text.length > MAX_DETAIL) text = `${text.slice(0, MAX_DETAIL - 1)}…`;
  return text || 'no details given';
}

function providerMessage(error: unknown): string {
  if (typeof error === 'string') return error;
  if (!error || typeof error !== 'object') return '';
  const e = error as { apiMessage?: unknown; error?: { message?: unknown; error?: { message?: unknown } }; message?: unknown };
  // The SDKs keep the parsed error body: OpenAI its inner `error`, Anthropic the whole body.
  if (typeof e.apiMessage === 'string') return e.apiMessage;
  if (typeof e.error?.message === 'string') return e.error.message;
  if (typeof e.error?.error?.message === 'string') return e.error.error.message;
  return stripPrefixes(typeof e.message === 'string' ? e.message : '');
}

function stripPrefixes(message: string): string {
  return message
    .replace(/^\[GoogleGenerativeAI Error\]:\s*/, '')
    .replace(/^Error fetching from \S+:? (?:\[[^\]]*\]\s*)?/, '')
    .replace(/^Failed to perform inference:\s*/, '')
    .replace(/^\d{3}\s+/, '')
    .replace(/\s\[\{"@type".*$/, '')
    .trim();
}

/** Connection-level failures, told apart by what the fetch implementation left in the cause chain. */
function networkProblem(error: unknown): string | undefined {
  let code: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code: c, message } = current as { code?: unknown; message?: unknown };
    if (c === 'UND_ERR_SOCKET' || message === 'terminated' || message === 'other side closed') {
      return 'the connection closed before the answer was complete';
    }
    if (typeof c === 'string' && /^E[A-Z]+$/.test(c)) code ??= c;
    current = (current as { cause?: unknown }).cause;
  }
  const top = stripPrefixes(error instanceof Error ? error.message : '');
  if (code || /^(connection error|fetch failed)\.?$/i.test(top)) return `could not reach the service${code ? ` (${code})` : ''}`;
  return undefined;
}
