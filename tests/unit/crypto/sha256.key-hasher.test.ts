import { Sha256KeyHasher } from '../../../adapters/crypto/sha256.key-hasher';

describe('Sha256KeyHasher', () => {
  const hasher = new Sha256KeyHasher();

  it('gives the SHA-256 hex digest of the UTF-8 text', () => {
    expect(hasher.hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hasher.hash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('is deterministic and tells different keys apart', () => {
    expect(hasher.hash('ak_live_1')).toBe(hasher.hash('ak_live_1'));
    expect(hasher.hash('ak_live_1')).not.toBe(hasher.hash('ak_live_2'));
    expect(hasher.hash('ak_live_1')).toMatch(/^[0-9a-f]{64}$/);
  });
});
