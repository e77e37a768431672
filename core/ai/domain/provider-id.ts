/** The four supported providers (SPEC 2.1) and the prefix a saved key of each must start with. */
export const PROVIDER_IDS = ['provider_a', 'provider_b', 'provider_c', 'provider_d'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export const KEY_PREFIXES: Record<ProviderId, string> = {
  provider_a: 'sk-',
  provider_b: 'sk-ant-',
  provider_c: 'AIzaSy',
  provider_d: 'hf_',
};

/**
 * What answered a turn: one of the built-in provider ids, or the name of one of the owner's connections
 * (docs/connections.md; never one of the ids). Narrow with `isProviderId` before using it as a ProviderId.
 */
export type AnsweringProvider = ProviderId | ConnectionName;
/** A connection's name as a provider (`local-ollama`): a string that is not a ProviderId. */
export type ConnectionName = string & { readonly __connectionName?: never };

export const isProviderId = (value: unknown): value is ProviderId =>
  typeof value === 'string' && (PROVIDER_IDS as readonly string[]).includes(value);

/** The service each provider id speaks, for messages a person reads. */
export const PROVIDER_SERVICES: Record<ProviderId, string> = {
  provider_a: 'OpenAI',
  provider_b: 'Anthropic',
  provider_c: 'Google Gemini',
  provider_d: 'Hugging Face',
};

/** `provider_a (OpenAI)`: the id a client sends, with the service it stands for. */
export const describeProvider = (id: ProviderId): string => `${id} (${PROVIDER_SERVICES[id]})`;
