import { Argon2PasswordHasher, OWASP_ARGON2_OPTIONS } from '../../../adapters/crypto/argon2.password-hasher';

const FAST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** `$argon2id$v=19$m=..,t=..,p=..$salt$hash` -> its algorithm and parameters (their order varies by version). */
function paramsOf(hash: string): { algorithm: string; m: number; t: number; p: number } {
  const [, algorithm, , params] = hash.split('$');
  const map = Object.fromEntries(params.split(',').map((kv) => kv.split('=')));
  return { algorithm, m: Number(map.m), t: Number(map.t), p: Number(map.p) };
}

describe('Argon2PasswordHasher', () => {
  const hasher = new Argon2PasswordHasher(FAST);

  it('produces an argon2id hash that is never the password and verifies it', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    expect(paramsOf(hash)).toEqual({ algorithm: 'argon2id', m: 1024, t: 1, p: 1 });
    expect(hash).not.toContain('correct horse battery staple');
    expect(await hasher.verify(hash, 'correct horse battery staple')).toBe(true);
  });

  it('salts every hash, so the same password hashes differently', async () => {
    expect(await hasher.hash('same password')).not.toBe(await hasher.hash('same password'));
  });

  it('answers false for a wrong password', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    expect(await hasher.verify(hash, 'Correct horse battery staple')).toBe(false);
    expect(await hasher.verify(hash, '')).toBe(false);
  });

  it.each(['', 'plaintext', '$argon2id$', '$argon2id$v=19$m=1024,t=1,p=1$bm90LWEtc2FsdA$', '$2b$10$abcdefghijklmnopqrstuv', '$argon2id$v=19$m=x,t=1,p=1$AAAA$AAAA'])(
    'answers false, without throwing, for the malformed hash %j',
    async (malformed) => {
      await expect(hasher.verify(malformed, 'whatever')).resolves.toBe(false);
    },
  );

  it('verifies hashes made with other parameters (they travel inside the hash)', async () => {
    const older = await new Argon2PasswordHasher({ memoryCost: 2048, timeCost: 2, parallelism: 1 }).hash('pw-older');
    expect(await hasher.verify(older, 'pw-older')).toBe(true);
  });

  it('uses the OWASP parameters by default', async () => {
    expect(OWASP_ARGON2_OPTIONS).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
    const hash = await new Argon2PasswordHasher().hash('default params');
    expect(paramsOf(hash)).toEqual({ algorithm: 'argon2id', m: 19456, t: 2, p: 1 });
  });
});
