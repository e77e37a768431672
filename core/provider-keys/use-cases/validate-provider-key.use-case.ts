import type { ProviderId } from '../../ai/domain/provider-id';
import type { LlmProviderRegistry } from '../../ai/ports/llm-provider.port';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { NotFoundError, UpstreamError } from '../../shared/errors';
import type { SecretBox } from '../../shared/secret-box.port';
import { keyHintOf, parseProviderParam } from '../domain/provider-key';
import type { ProviderKeyRepository } from '../ports/provider-key-repository.port';
import { openProviderKey } from './open-provider-key';

export type KeyValidation = { valid: true; provider: ProviderId; models: string[] } | { valid: false; provider: ProviderId; error: string };

/**
 * Checks the caller's saved key with a live model listing (SPEC 4.6 rule 2). A key the provider
 * refuses is an answer (`valid: false` with the provider's reason); an outage or timeout is not a
 * verdict on the key and fails the request (502/504) instead.
 */
export class ValidateProviderKeyUseCase {
  constructor(private readonly deps: { keys: ProviderKeyRepository; secretBox: SecretBox; providers: LlmProviderRegistry; clock: Clock }) {}

  async execute(providerParam: unknown, actor: Actor, signal?: AbortSignal): Promise<KeyValidation> {
    const provider = parseProviderParam(providerParam);
    const stored = await this.deps.keys.find(actor.userId, provider);
    if (!stored) throw new NotFoundError('Provider key', `No ${provider} key is saved: save one under Provider keys first`);
    const rawKey = openProviderKey(this.deps.secretBox, stored);
    let models: string[];
    try {
      models = await this.deps.providers.get(provider).listModels(rawKey, signal);
    } catch (error) {
      if (error instanceof UpstreamError && (error.status === 400 || error.status === 424)) {
        return { valid: false, provider, error: withoutKey(error.message, rawKey) };
      }
      throw error;
    }
    await this.deps.keys.markValidated(actor.userId, provider, this.deps.clock.now());
    return { valid: true, provider, models };
  }
}

/** Providers may quote the key back in their error text; only its hint may reach the client. */
function withoutKey(message: string, rawKey: string): string {
  return message.split(rawKey).join(`…${keyHintOf(rawKey)}`);
}
