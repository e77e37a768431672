import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The acting user the core API forwards to the marketplace service. The core API has authenticated the user; the
 * marketplace trusts these headers only when the signature (HMAC-SHA256 keyed by MARKETPLACE_TOKEN over
 * `${userId}\n${role}\n${timestamp}`) matches and the timestamp is within five minutes of its clock.
 */
export interface ActingUser {
  userId: string;
  role: string;
}

export const ACTING_USER_HEADERS = {
  userId: 'x-acting-user-id',
  role: 'x-acting-user-role',
  timestamp: 'x-acting-timestamp',
  signature: 'x-acting-signature',
} as const;

/** How far the signed timestamp may be from the marketplace's clock, either way. */
export const ACTING_USER_MAX_SKEW_SECONDS = 300;

const signature = (token: string, userId: string, role: string, timestamp: string): string =>
  createHmac('sha256', token).update(`${userId}\n${role}\n${timestamp}`).digest('hex');

/** The headers that carry `user` to the marketplace, signed at `now` (timestamp in whole seconds since the epoch). */
export function signActingUser(token: string, user: ActingUser, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    [ACTING_USER_HEADERS.userId]: user.userId,
    [ACTING_USER_HEADERS.role]: user.role,
    [ACTING_USER_HEADERS.timestamp]: timestamp,
    [ACTING_USER_HEADERS.signature]: signature(token, user.userId, user.role, timestamp),
  };
}

type HeaderBag = Record<string, string | string[] | undefined>;

const single = (headers: HeaderBag, name: string): string | undefined => {
  const value = headers[name] ?? headers[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
};

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The acting user of a request when its headers carry a valid signature made within five minutes of `now`;
 * null when any header is missing, repeated, malformed, stale or signed with another token.
 */
export function verifyActingUser(token: string, headers: HeaderBag, now: Date): ActingUser | null {
  const userId = single(headers, ACTING_USER_HEADERS.userId);
  const role = single(headers, ACTING_USER_HEADERS.role);
  const timestamp = single(headers, ACTING_USER_HEADERS.timestamp);
  const given = single(headers, ACTING_USER_HEADERS.signature);
  if (!userId || !role || !timestamp || !given) return null;
  if (userId.includes('\n') || role.includes('\n') || !/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(given)) return null;
  if (Math.abs(Number(timestamp) - now.getTime() / 1000) > ACTING_USER_MAX_SKEW_SECONDS) return null;
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  const expected = signature(token, userId, role, timestamp);
  if (!timingSafeEqual(digest(given.toLowerCase()), digest(expected))) return null;
  return { userId, role };
}
