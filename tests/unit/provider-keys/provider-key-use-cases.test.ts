import { randomBytes, randomUUID } from 'node:crypto';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm.secret-box';
import { InMemoryProviderKeyRepository } from '../../../adapters/persistence/provider-keys/in-memory-provider-key.repository';
import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { LlmProvider, LlmProviderRegistry } from '../../../core/ai/ports/llm-provider.port';
import { providerKeyAssociatedData } from '../../../core/provider-keys/domain/provider-key';
import { DeleteProviderKeyUseCase } from '../../../core/provider-keys/use-cases/delete-provider-key.use-case';
import { ListProviderKeysUseCase } from '../../../core/provider-keys/use-cases/list-provider-keys.use-case';
import { SaveProviderKeyUseCase } from '../../../core/provider-keys/use-cases/save-provider-key.use-case';
import { ValidateProviderKeyUseCase } from '../../../core/provider-keys/use-cases/validate-provider-key.use-case';
import type { Actor } from '../../../core/shared/actor';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '../../../core/shared/errors';

const RAW_KEY = 'sk-user-own-key-0123456789abcd';

/** A registry whose providers list models for any key but those containing `rejected` or `outage`. */
function fakeRegistry(): LlmProviderRegistry & { calls: { provider: ProviderId; apiKey: string }[] } {
  const calls: { provider: ProviderId; apiKey: string }[] = [];
  const provider = (id: ProviderId): LlmProvider => ({
    id,
    chat: () => Promise.reject(new Error('not used')),
    stream: () => {
      throw new Error('not used');
    },
    listModels: async (apiKey: string) => {
      calls.push({ provider: id, apiKey });
      if (apiKey.includes('rejected')) throw new UpstreamError(`${id} refused the API key: Incorrect API key provided: ${apiKey}`, 424);
      if (apiKey.includes('outage')) throw new UpstreamError(`${id} failed (503)`, 502);
      return [`${id}-model-1`, `${id}-model-2`];
    },
  });
  return { calls, get: provider, platformKey: () => undefined };
}

function aSetup() {
  const keys = new InMemoryProviderKeyRepository();
  const secretBox = new AesGcmSecretBox({ key: randomBytes(32).toString('hex') });
  let now = new Date('2026-03-01T10:00:00Z');
  const clock = { now: () => now };
  const providers = fakeRegistry();
  const deps = { keys, secretBox, clock, providers };
  return {
    keys,
    secretBox,
    providers,
    moveClock: (to: string) => (now = new Date(to)),
    save: new SaveProviderKeyUseCase(deps),
    list: new ListProviderKeysUseCase(deps),
    remove: new DeleteProviderKeyUseCase(deps),
    validate: new ValidateProviderKeyUseCase(deps),
  };
}

const anActor = (): Actor => ({ userId: randomUUID(), role: 'developer' });

describe('provider keys (core)', () => {
  it('saves a key sealed to its owner and provider and answers only its hint', async () => {
    const s = aSetup();
    const actor = anActor();
    const saved = await s.save.execute('provider_a', { apiKey: RAW_KEY }, actor);
    expect(saved).toEqual({ provider: 'provider_a', keyHint: 'abcd', isActive: true });
    const stored = s.keys.keys.get(`${actor.userId}:provider_a`)!;
    expect(stored.sealedKey).not.toContain(RAW_KEY);
    expect(s.secretBox.open(stored.sealedKey, providerKeyAssociatedData(actor.userId, 'provider_a'))).toBe(RAW_KEY);
    expect(() => s.secretBox.open(stored.sealedKey, providerKeyAssociatedData(randomUUID(), 'provider_a'))).toThrow(ConflictError);
  });

  it.each([
    ['provider_a', 'pk-wrong-prefix-1234'],
    ['provider_b', 'sk-not-anthropic-1234'],
    ['provider_c', 'AIzaXWrongPrefix1234'],
    ['provider_d', 'hx_wrong_prefix_1234'],
  ] as const)('refuses a %s key with the wrong prefix, without repeating it', async (provider, apiKey) => {
    const s = aSetup();
    const error = await s.save.execute(provider, { apiKey }, anActor()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/must start with/);
    expect(JSON.stringify(error)).not.toContain(apiKey);
    expect((error as Error).message).not.toContain(apiKey);
    expect(s.keys.keys.size).toBe(0);
  });

  it.each([
    ['provider_a', 'sk-ant-api03-anthropic-key-1234', 'provider_b (Anthropic)'],
    ['provider_b', 'sk-proj-openai-key-1234', 'provider_a (OpenAI)'],
    ['provider_c', 'hf_hugging_face_key_1234', 'provider_d (Hugging Face)'],
    ['provider_d', 'AIzaSyGeminiKey-1234', 'provider_c (Google Gemini)'],
  ] as const)('refuses for %s a key of another provider with a 400 naming the one it looks like', async (provider, apiKey, owner) => {
    const s = aSetup();
    const error = await s.save.execute(provider, { apiKey }, anActor()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain(`looks like a ${owner} key: save it as your ${owner.slice(0, 10)} key instead`);
    expect((error as ValidationError).details).toEqual([{ path: 'apiKey', message: (error as Error).message }]);
    expect((error as Error).message).not.toContain(apiKey);
    expect(s.keys.keys.size).toBe(0);
  });

  it.each([
    ['no apiKey', {}, /apiKey is required/],
    ['a number', { apiKey: 42 }, /must be a string/],
    ['a key with a space', { apiKey: 'sk-has space-1234' }, /spaces or control characters/],
    ['a 603-character key', { apiKey: 'sk-' + 'x'.repeat(600) }, /at most 512/],
    ['a key no longer than its prefix and hint', { apiKey: 'sk-1' }, /too short/],
  ])('refuses %s with a 400', async (_label, body, message) => {
    await expect(aSetup().save.execute('provider_a', body, anActor())).rejects.toThrow(message);
  });

  it('refuses an unknown provider with a 400 naming the supported ones', async () => {
    const s = aSetup();
    await expect(s.save.execute('provider_z', { apiKey: RAW_KEY }, anActor())).rejects.toThrow(/provider must be one of provider_a, provider_b/);
    await expect(s.remove.execute('nope', anActor())).rejects.toBeInstanceOf(ValidationError);
    await expect(s.validate.execute('nope', anActor())).rejects.toBeInstanceOf(ValidationError);
  });

  it('replaces an earlier key, clearing its usage and validation dates', async () => {
    const s = aSetup();
    const actor = anActor();
    await s.save.execute('provider_a', { apiKey: RAW_KEY }, actor);
    await s.validate.execute('provider_a', actor);
    await s.save.execute('provider_a', { apiKey: 'sk-second-key-wxyz' }, actor);
    expect(await s.list.execute(actor)).toEqual([{ provider: 'provider_a', keyHint: 'wxyz', isActive: true, lastUsedAt: null, lastValidatedAt: null }]);
  });

  it("lists only the caller's keys, in provider order", async () => {
    const s = aSetup();
    const actor = anActor();
    await s.save.execute('provider_d', { apiKey: 'hf_token_1111' }, actor);
    await s.save.execute('provider_b', { apiKey: 'sk-ant-key-2222' }, actor);
    await s.save.execute('provider_a', { apiKey: RAW_KEY }, anActor());
    expect((await s.list.execute(actor)).map((k) => [k.provider, k.keyHint])).toEqual([
      ['provider_b', '2222'],
      ['provider_d', '1111'],
    ]);
  });

  it('deletes a key, and answers 404 when there is none', async () => {
    const s = aSetup();
    const actor = anActor();
    await s.save.execute('provider_c', { apiKey: 'AIzaSyKey3333' }, actor);
    await s.remove.execute('provider_c', actor);
    expect(await s.list.execute(actor)).toEqual([]);
    await expect(s.remove.execute('provider_c', actor)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('validates a key by listing models with it, and records when', async () => {
    const s = aSetup();
    const actor = anActor();
    await s.save.execute('provider_a', { apiKey: RAW_KEY }, actor);
    expect(await s.validate.execute('provider_a', actor)).toEqual({ valid: true, provider: 'provider_a', models: ['provider_a-model-1', 'provider_a-model-2'] });
    expect(s.providers.calls).toEqual([{ provider: 'provider_a', apiKey: RAW_KEY }]);
    expect((await s.list.execute(actor))[0]!.lastValidatedAt).toBe('2026-03-01T10:00:00.000Z');
  });

  it("answers valid: false with the provider's reason for a refused key, with the key itself masked", async () => {
    const s = aSetup();
    const actor = anActor();
    const rejected = 'sk-rejected-key-9876';
    await s.save.execute('provider_a', { apiKey: rejected }, actor);
    const result = await s.validate.execute('provider_a', actor);
    expect(result).toEqual({ valid: false, provider: 'provider_a', error: 'provider_a refused the API key: Incorrect API key provided: …9876' });
    expect((await s.list.execute(actor))[0]!.lastValidatedAt).toBeNull();
  });

  it('fails the check (502) when the provider is down: an outage says nothing about the key', async () => {
    const s = aSetup();
    const actor = anActor();
    await s.save.execute('provider_a', { apiKey: 'sk-outage-key-1111' }, actor);
    await expect(s.validate.execute('provider_a', actor)).rejects.toMatchObject({ status: 502 });
  });

  it('answers 404 when validating with no saved key', async () => {
    await expect(aSetup().validate.execute('provider_b', anActor())).rejects.toThrow(/No provider_b key is saved/);
  });

  it('rejects a tampered or moved ciphertext with a 409 that says to save the key again', async () => {
    const s = aSetup();
    const owner = anActor();
    const other = anActor();
    await s.save.execute('provider_a', { apiKey: RAW_KEY }, owner);
    await s.save.execute('provider_a', { apiKey: 'sk-other-users-key-0000' }, other);
    // The owner's ciphertext copied onto the other user's row.
    s.keys.keys.get(`${other.userId}:provider_a`)!.sealedKey = s.keys.keys.get(`${owner.userId}:provider_a`)!.sealedKey;
    await expect(s.validate.execute('provider_a', other)).rejects.toThrow(/failed its integrity check.*save it again/);
    // One character of the owner's ciphertext changed.
    const row = s.keys.keys.get(`${owner.userId}:provider_a`)!;
    const i = row.sealedKey.length - 30;
    row.sealedKey = row.sealedKey.slice(0, i) + (row.sealedKey[i] === 'A' ? 'B' : 'A') + row.sealedKey.slice(i + 1);
    await expect(s.validate.execute('provider_a', owner)).rejects.toBeInstanceOf(ConflictError);
    expect(s.providers.calls).toEqual([]);
  });
});
