/** One billing period: `start` inclusive, `end` exclusive. */
export interface BillingPeriod {
  start: Date;
  end: Date;
}

/**
 * `months` calendar months after `anchor` in UTC, keeping its day and time of day; a day the target
 * month lacks becomes that month's last day (31 January + 1 month = 28 or 29 February).
 */
export function addMonths(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(anchor.getUTCDate(), lastDay), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()),
  );
}

/**
 * The monthly period that contains `now`, counted from the subscription's start. Every boundary is
 * computed from the anchor itself, so short months never shift later periods. Before the anchor
 * (clock skew) the first period applies.
 */
export function periodContaining(anchor: Date, now: Date): BillingPeriod {
  if (now.getTime() < anchor.getTime()) return { start: anchor, end: addMonths(anchor, 1) };
  let k = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  // The month difference is right or one too many (now earlier in its month than the anchor day).
  if (addMonths(anchor, k).getTime() > now.getTime()) k -= 1;
  return { start: addMonths(anchor, k), end: addMonths(anchor, k + 1) };
}
