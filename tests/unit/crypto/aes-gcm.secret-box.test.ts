import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { AesGcmSecretBox, rotateSealed } from '../../../adapters/crypto/aes-gcm.secret-box';
import { ConflictError } from '../../../core/shared/errors';

const aKey = (): string => randomBytes(32).toString('hex');
const AAD = 'provider-key:user-1:provider_a';
const INTEGRITY = 'The stored secret failed its integrity check; save it again';

/** Flips one bit in the decoded bytes of part `index` (2 = iv, 3 = ciphertext, 4 = tag) and re-encodes it. */
function flipByte(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index], 'base64url');
  bytes[bytes.length - 1] ^= 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

function expectIntegrityFailure(open: () => string): void {
  let thrown: unknown;
  try {
    open();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConflictError);
  expect((thrown as Error).message).toBe(INTEGRITY);
}

describe('AesGcmSecretBox', () => {
  const key = aKey();
  const box = new AesGcmSecretBox({ key });

  it('opens what it sealed, including empty and non-ASCII text', () => {
    for (const text of ['sk-live-1234567890abcdef', '', 'clé secrète ✓ 鍵']) {
      expect(box.open(box.seal(text, AAD), AAD)).toBe(text);
    }
  });

  it('uses the versioned format v1.<keyId>.<iv>.<ciphertext>.<tag> and never shows the plaintext or key', () => {
    const sealed = box.seal('sk-live-secret', AAD);
    const [version, keyId, iv, ciphertext, tag] = sealed.split('.');
    expect(version).toBe('v1');
    expect(keyId).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(ciphertext, 'base64url')).toHaveLength('sk-live-secret'.length);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(sealed).not.toContain('sk-live-secret');
    expect(sealed).not.toContain(key);
    expect(sealed.toLowerCase()).not.toContain(key.slice(0, 12).toLowerCase());
  });

  it('draws a fresh IV for every seal, so sealing the same text twice gives different output', () => {
    const first = box.seal('same text', AAD);
    const second = box.seal('same text', AAD);
    expect(first).not.toBe(second);
    expect(first.split('.')[2]).not.toBe(second.split('.')[2]);
  });

  it.each([
    ['iv', 2],
    ['ciphertext', 3],
    ['tag', 4],
  ])('rejects a value with a flipped byte in the %s', (_part, index) => {
    const sealed = box.seal('sk-live-secret', AAD);
    expectIntegrityFailure(() => box.open(flipByte(sealed, index), AAD));
  });

  it('rejects a non-canonical base64url spelling of the tag (spare bits changed)', () => {
    const sealed = box.seal('sk-live-secret', AAD);
    const parts = sealed.split('.');
    const last = parts[4].slice(-1);
    // 16 bytes encode to 22 characters; the last one carries 4 unused bits.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    parts[4] = parts[4].slice(0, -1) + alphabet[alphabet.indexOf(last) ^ 0x01];
    expectIntegrityFailure(() => box.open(parts.join('.'), AAD));
  });

  it('rejects a value sealed for other associated data (copied to another row)', () => {
    const sealed = box.seal('sk-live-secret', AAD);
    expectIntegrityFailure(() => box.open(sealed, 'provider-key:user-2:provider_a'));
    expectIntegrityFailure(() => box.open(sealed, 'provider-key:user-1:provider_b'));
  });

  it('rejects a value sealed with a key it does not hold', () => {
    const stranger = new AesGcmSecretBox({ key: aKey() });
    expectIntegrityFailure(() => box.open(stranger.seal('sk-live-secret', AAD), AAD));
  });

  it('rejects a value whose keyId was swapped for another held key', () => {
    const previous = aKey();
    const rotating = new AesGcmSecretBox({ key: aKey(), previousKeys: [previous] });
    const sealed = rotating.seal('sk-live-secret', AAD);
    const previousId = new AesGcmSecretBox({ key: previous }).seal('x', AAD).split('.')[1];
    const parts = sealed.split('.');
    parts[1] = previousId;
    expectIntegrityFailure(() => rotating.open(parts.join('.'), AAD));
  });

  it.each(['', 'garbage', 'v2.a.b.c.d', 'v1..AAAAAAAAAAAAAAAA..AAAAAAAAAAAAAAAAAAAAAA', 'v1.x.y.z', 'v1.a.b.c.d.e'])(
    'rejects malformed input %j with the same integrity error',
    (sealed) => expectIntegrityFailure(() => box.open(sealed, AAD)),
  );

  it('refuses a key that is not 64 hex characters, naming ENCRYPTION_KEY without echoing the value', () => {
    for (const bad of ['', 'abc', `${aKey()}00`, 'z'.repeat(64)]) {
      expect(() => new AesGcmSecretBox({ key: bad })).toThrow(/ENCRYPTION_KEY/);
      try {
        new AesGcmSecretBox({ key: bad });
      } catch (error) {
        if (bad) expect((error as Error).message).not.toContain(bad);
      }
    }
    expect(() => new AesGcmSecretBox({ key: aKey(), previousKeys: ['nope'] })).toThrow(/ENCRYPTION_KEY/);
  });

  it('keeps key bytes out of inspect and JSON output', () => {
    expect(inspect(box, { depth: 10 })).not.toContain(key);
    expect(JSON.stringify(box)).not.toContain(key);
  });

  describe('key rotation', () => {
    const oldKey = aKey();
    const newKey = aKey();
    const oldBox = new AesGcmSecretBox({ key: oldKey });
    const rotatingBox = new AesGcmSecretBox({ key: newKey, previousKeys: [oldKey] });
    const newOnlyBox = new AesGcmSecretBox({ key: newKey });

    it('opens values sealed with a previous key', () => {
      expect(rotatingBox.open(oldBox.seal('sk-old', AAD), AAD)).toBe('sk-old');
    });

    it('tells which values were sealed with the current key', () => {
      const old = oldBox.seal('sk-old', AAD);
      expect(rotatingBox.sealedWithCurrentKey(old)).toBe(false);
      expect(rotatingBox.sealedWithCurrentKey(rotatingBox.seal('sk-new', AAD))).toBe(true);
      expect(rotatingBox.sealedWithCurrentKey('garbage')).toBe(false);
    });

    it('reseals an old value to the current key, after which a box with only the old key cannot open it', () => {
      const old = oldBox.seal('sk-old', AAD);
      const resealed = rotatingBox.reseal(old, AAD);
      expect(rotatingBox.sealedWithCurrentKey(resealed)).toBe(true);
      expect(newOnlyBox.open(resealed, AAD)).toBe('sk-old');
      expectIntegrityFailure(() => oldBox.open(resealed, AAD));
    });

    it('reseal still checks the associated data', () => {
      const old = oldBox.seal('sk-old', AAD);
      expectIntegrityFailure(() => rotatingBox.reseal(old, 'provider-key:user-2:provider_a'));
    });

    it('rotateSealed moves a value from one box to another', () => {
      const moved = rotateSealed(oldBox.seal('sk-old', AAD), AAD, oldBox, newOnlyBox);
      expect(newOnlyBox.open(moved, AAD)).toBe('sk-old');
      expectIntegrityFailure(() => oldBox.open(moved, AAD));
    });

    it('never seals with a previous key', () => {
      expectIntegrityFailure(() => oldBox.open(rotatingBox.seal('sk-new', AAD), AAD));
    });
  });
});
