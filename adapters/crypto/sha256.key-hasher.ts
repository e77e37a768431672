import { createHash } from 'node:crypto';
import type { KeyHasher } from '../../core/shared/key-hasher.port';

/** SHA-256 hex digest: enough for random 256-bit keys and tokens, which need no salt or stretching. */
export class Sha256KeyHasher implements KeyHasher {
  hash(raw: string): string {
    return createHash('sha256').update(raw, 'utf8').digest('hex');
  }
}
