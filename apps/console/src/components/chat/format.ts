/** A duration: milliseconds under a second, else seconds with one decimal. */
export const formatDuration = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** US dollars: cents for large amounts, four significant digits for the small amounts one answer costs. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  return `$${Number(usd.toPrecision(4)).toString()}`;
}

/** Arguments as the model wrote them: JSON pretty-printed, text as it is. */
export function formatArguments(args: unknown, indent = 2): string {
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args ?? {}, null, indent) ?? '';
  } catch {
    return String(args);
  }
}
