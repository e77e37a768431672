import { describeProvider, isProviderId, KEY_PREFIXES, PROVIDER_IDS, type ProviderId } from '../../ai/domain/provider-id';
import { ValidationError } from '../../shared/errors';

/** A user's own key for one provider (SPEC 2.5). The key itself is only ever held sealed. */
export interface ProviderKey {
  userId: string;
  provider: ProviderId;
  /** The key sealed by the SecretBox, bound to `providerKeyAssociatedData(userId, provider)`. */
  sealedKey: string;
  keyHint: string;
  isActive: boolean;
  lastUsedAt: Date | null;
  lastValidatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The list record of SPEC 2.5: hints only. */
export interface ProviderKeyView {
  provider: ProviderId;
  keyHint: string;
  isActive: boolean;
  lastUsedAt: string | null;
  lastValidatedAt: string | null;
}

/** What saving a key answers (SPEC 4.6). */
export type SavedProviderKeyView = Pick<ProviderKeyView, 'provider' | 'keyHint' | 'isActive'>;

export const toProviderKeyView = (key: ProviderKey): ProviderKeyView => ({
  provider: key.provider,
  keyHint: key.keyHint,
  isActive: key.isActive,
  lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  lastValidatedAt: key.lastValidatedAt?.toISOString() ?? null,
});

export const toSavedProviderKeyView = (key: ProviderKey): SavedProviderKeyView => ({
  provider: key.provider,
  keyHint: key.keyHint,
  isActive: key.isActive,
});

/** SPEC 8: the hint is the key's last 4 characters. */
export const KEY_HINT_LENGTH = 4;
export const keyHintOf = (rawKey: string): string => rawKey.slice(-KEY_HINT_LENGTH);

/**
 * Binds a sealed key to its row: a ciphertext copied to another user's or provider's row no longer
 * opens. Rotation must use the same value.
 */
export const providerKeyAssociatedData = (userId: string, provider: ProviderId): string => `provider-key:${userId}:${provider}`;

/** Real keys are a few dozen characters; the bound only stops abuse of storage. */
export const MAX_KEY_LENGTH = 512;

/** A `:provider` path segment; anything else is the 400 "unsupported provider" of SPEC 7. */
export function parseProviderParam(raw: unknown): ProviderId {
  if (isProviderId(raw)) return raw;
  throw ValidationError.field('provider', `provider must be one of ${PROVIDER_IDS.join(', ')}`);
}

/**
 * Reads `{ apiKey }` and checks it against the provider's prefix (SPEC 2.1, 4.6 rule 1). Messages
 * never repeat the value: a wrong key may still be a real secret of another provider.
 */
export function parseApiKey(provider: ProviderId, body: unknown): string {
  const raw = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { apiKey?: unknown }).apiKey : undefined;
  if (raw === undefined || raw === null || raw === '') throw ValidationError.field('apiKey', 'apiKey is required');
  if (typeof raw !== 'string') throw ValidationError.field('apiKey', 'apiKey must be a string');
  const key = raw.trim();
  if (key.length > MAX_KEY_LENGTH) throw ValidationError.field('apiKey', `apiKey must be at most ${MAX_KEY_LENGTH} characters`);
  // Keys are printable ASCII without spaces; anything else would also break the provider's auth header.
  if (!/^[\x21-\x7e]+$/.test(key)) throw ValidationError.field('apiKey', 'apiKey must not contain spaces or control characters');
  const prefix = KEY_PREFIXES[provider];
  const owner = providerOfKey(key);
  if (owner && owner !== provider) {
    throw ValidationError.field(
      'apiKey',
      `A ${describeProvider(provider)} key must start with "${prefix}"; this one starts with "${KEY_PREFIXES[owner]}" and looks like a ${describeProvider(owner)} key: save it as your ${owner} key instead`,
    );
  }
  if (!key.startsWith(prefix)) throw ValidationError.field('apiKey', `A ${provider} key must start with "${prefix}"`);
  if (key.length < prefix.length + KEY_HINT_LENGTH) throw ValidationError.field('apiKey', `apiKey is too short for a ${provider} key`);
  return key;
}

/**
 * The provider whose prefix a key carries, the longest prefix winning: an Anthropic key (`sk-ant-`)
 * also starts with OpenAI's `sk-`, and must not be taken for one.
 */
export function providerOfKey(key: string): ProviderId | undefined {
  let best: ProviderId | undefined;
  for (const id of PROVIDER_IDS) {
    if (key.startsWith(KEY_PREFIXES[id]) && (!best || KEY_PREFIXES[id].length > KEY_PREFIXES[best].length)) best = id;
  }
  return best;
}
