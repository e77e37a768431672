import { UpstreamError } from '../../shared/errors';
import { describeProvider, type ProviderId } from './provider-id';

/** As many characters as the saved key's hint shows (SPEC 8), so the two can be matched by eye. */
const HINT_LENGTH = 4;

/**
 * A provider refused the key it was called with: 424 Failed Dependency, naming the provider and the
 * key's hint so its owner knows which key to replace. Never a 401, which a client reads as its own
 * session having expired.
 */
export function providerKeyRejected(provider: ProviderId, apiKey?: string): UpstreamError {
  const hint = apiKey && apiKey.length > HINT_LENGTH * 2 ? ` ending in "${apiKey.slice(-HINT_LENGTH)}"` : '';
  return new UpstreamError(
    `${describeProvider(provider)} rejected the API key${hint}: check it, or save a working ${describeProvider(provider)} key, under Provider keys`,
    424,
  );
}

/**
 * The same refusal when the key was the platform's (PROVIDER_X_API_KEY): the caller cannot fix it and
 * must not see any part of it, so it is the platform's failure (502) and says who can fix it.
 */
export function platformKeyRejected(provider: ProviderId): UpstreamError {
  return new UpstreamError(
    `${describeProvider(provider)} rejected the platform's API key; the platform's administrator must replace it`,
    502,
  );
}
