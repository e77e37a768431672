/**
 * Retries, load sharing and fallbacks of a model (docs/connections.md) as a form types them and as the API takes them:
 * shared by the studio's model section and the model config form.
 */
export interface Resilience {
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number };
  fallbacks?: { provider: string; model: string }[];
  /** Other models that take turns with this one (each turn goes to the next), tried before the fallbacks. */
  balance?: { provider: string; model: string }[];
}

/** Numbers as typed, balance members and fallbacks one `provider/model` per line, in order. */
export interface ResilienceText {
  maxRetries: string;
  baseDelayMs: string;
  maxDelayMs: string;
  balance: string;
  fallbacks: string;
}

/** `provider/model` lines (a connection's name or a provider id, then the model, which may hold slashes). */
export function parseFallbacks(text: string): { provider: string; model: string }[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf('/');
      return at < 0 ? { provider: line, model: '' } : { provider: line.slice(0, at).trim(), model: line.slice(at + 1).trim() };
    });
}

export function resilienceText(r: Resilience | undefined | null): ResilienceText {
  const text = (v: number | undefined) => (v === undefined || v === null ? '' : String(v));
  return {
    maxRetries: text(r?.retry?.maxRetries),
    baseDelayMs: text(r?.retry?.baseDelayMs),
    maxDelayMs: text(r?.retry?.maxDelayMs),
    balance: (r?.balance ?? []).map((f) => `${f.provider}/${f.model}`).join('\n'),
    fallbacks: (r?.fallbacks ?? []).map((f) => `${f.provider}/${f.model}`).join('\n'),
  };
}

/** The retry, balance and fallback settings as the API takes them; none when nothing is set (a turn then calls its model once). */
export function resilienceOf(f: ResilienceText | undefined): Resilience | undefined {
  if (!f) return undefined;
  const retry: NonNullable<Resilience['retry']> = {};
  for (const k of ['maxRetries', 'baseDelayMs', 'maxDelayMs'] as const) if (f[k].trim() !== '') retry[k] = Number(f[k]);
  const fallbacks = parseFallbacks(f.fallbacks);
  const balance = parseFallbacks(f.balance ?? '');
  if (!Object.keys(retry).length && !fallbacks.length && !balance.length) return undefined;
  return { ...(Object.keys(retry).length ? { retry } : {}), ...(balance.length ? { balance } : {}), ...(fallbacks.length ? { fallbacks } : {}) };
}
