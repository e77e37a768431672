import { randomBytes } from 'node:crypto';

/** Every raw key starts with this, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'pk_live_';
/** 32 random bytes, base64url: 43 characters after the prefix. */
const RAW_KEY = /^pk_live_[A-Za-z0-9_-]{43}$/;

/** Requests per minute a key may make (SPEC 2.11, 8). */
export const RATE_LIMIT_RANGE = { min: 10, max: 10_000, default: 60 } as const;
export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface ApiKey {
  id: string;
  ownerId: string;
  /** The one application the key may use; null: every application of its owner. */
  applicationId: string | null;
  name: string;
  keyPrefix: string;
  /** The last four characters of the raw key. */
  keyHint: string;
  /** Requests per minute. */
  rateLimit: number;
  requestCount: number;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export interface ApiKeyView {
  id: string;
  name: string;
  applicationId: string | null;
  keyPrefix: string;
  keyHint: string;
  rateLimit: number;
  requestCount: number;
  lastUsedAt: string | null;
  isActive: boolean;
  revokedAt: string | null;
  createdAt: string;
}

/** What creation answers, the only time the raw key is ever shown. */
export interface CreatedApiKeyView extends ApiKeyView {
  key: string;
}

export const toApiKeyView = (k: ApiKey): ApiKeyView => ({
  id: k.id,
  name: k.name,
  applicationId: k.applicationId,
  keyPrefix: k.keyPrefix,
  keyHint: k.keyHint,
  rateLimit: k.rateLimit,
  requestCount: k.requestCount,
  lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
  isActive: k.revokedAt === null,
  revokedAt: k.revokedAt?.toISOString() ?? null,
  createdAt: k.createdAt.toISOString(),
});

/** A fresh raw key: the prefix and 256 random bits. */
export function generateRawApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** Whether a header value has the shape of a key at all (anything else is refused without a lookup). */
export const looksLikeApiKey = (value: unknown): value is string => typeof value === 'string' && RAW_KEY.test(value);

export const keyHintOf = (raw: string): string => raw.slice(-4);
