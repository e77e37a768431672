import { ValidationError } from '../../shared/errors';

/**
 * Traffic shares are kept in hundredths of a percent (0..10000), so sums and redistribution are
 * exact integer arithmetic; the API shows them as percentages with at most two decimals.
 */
export const FULL_TRAFFIC = 10_000;

export interface TrafficShare {
  id: string;
  /** Hundredths of a percent. */
  share: number;
}

export const toPercent = (hundredths: number): number => hundredths / 100;

/** `12.5` -> 1250. The caller has checked the range and the two-decimal precision. */
export const toHundredths = (percent: number): number => Math.round(percent * 100);

/** True for a number from 0 to 100 with at most two decimals. */
export function isTrafficPercent(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) return false;
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

/**
 * Active versions share at most 100% of the traffic; what they leave goes to the parent config.
 * `others` are the shares of the config's other active versions.
 */
export function assertTrafficFits(others: number[], share: number): void {
  const taken = others.reduce((sum, s) => sum + s, 0);
  if (taken + share > FULL_TRAFFIC) {
    const left = toPercent(Math.max(0, FULL_TRAFFIC - taken));
    throw ValidationError.field(
      'trafficPercent',
      `Active versions may take at most 100% of the traffic together; ${left}% is left for this version`,
    );
  }
}

/**
 * Weighted choice of a version: `random` in [0, 1) lands in a version's slice of the 0..100% line,
 * or past the last slice, in the parent config's share (null).
 */
export function pickVersion(shares: TrafficShare[], random: number): string | null {
  const point = Math.min(FULL_TRAFFIC - 1, Math.floor(random * FULL_TRAFFIC));
  let end = 0;
  for (const { id, share } of shares) {
    end += share;
    if (point < end) return id;
  }
  return null;
}

/**
 * Spreads a deleted version's share over the remaining active versions in proportion to their own
 * shares (equally when they all hold 0). Largest remainders settle the rounding, so the total is
 * preserved exactly, to the hundredth of a percent.
 */
export function redistribute(remaining: TrafficShare[], freed: number): TrafficShare[] {
  if (remaining.length === 0 || freed <= 0) return remaining.map((r) => ({ ...r }));
  const total = remaining.reduce((sum, r) => sum + r.share, 0);
  const weights = total === 0 ? remaining.map(() => 1) : remaining.map((r) => r.share);
  const weightSum = weights.reduce((sum, w) => sum + w, 0);
  const exact = weights.map((w) => (freed * w) / weightSum);
  const extra = exact.map(Math.floor);
  let leftover = freed - extra.reduce((sum, e) => sum + e, 0);
  const byRemainder = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of byRemainder) {
    if (leftover === 0) break;
    extra[i]! += 1;
    leftover -= 1;
  }
  return remaining.map((r, i) => ({ id: r.id, share: r.share + extra[i]! }));
}
