import { argon2id, hash, verify } from 'argon2';
import type { PasswordHasher } from '../../core/auth/ports/password-hasher.port';

export interface Argon2Options {
  /** KiB of memory per hash. */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet, argon2id first configuration. */
export const OWASP_ARGON2_OPTIONS: Readonly<Argon2Options> = Object.freeze({ memoryCost: 19456, timeCost: 2, parallelism: 1 });

const ARGON2_HASH = /^\$argon2(id|i|d)\$/;

/** argon2id password hashing; tests may pass cheaper parameters. */
export class Argon2PasswordHasher implements PasswordHasher {
  private readonly options: Argon2Options;

  constructor(options: Partial<Argon2Options> = {}) {
    this.options = {
      memoryCost: options.memoryCost ?? OWASP_ARGON2_OPTIONS.memoryCost,
      timeCost: options.timeCost ?? OWASP_ARGON2_OPTIONS.timeCost,
      parallelism: options.parallelism ?? OWASP_ARGON2_OPTIONS.parallelism,
    };
  }

  hash(password: string): Promise<string> {
    return hash(password, { type: argon2id, ...this.options });
  }

  async verify(storedHash: string, password: string): Promise<boolean> {
    if (typeof storedHash !== 'string' || typeof password !== 'string' || !ARGON2_HASH.test(storedHash)) return false;
    try {
      // Parameters come from the stored hash, so hashes made with older settings still verify.
      return await verify(storedHash, password);
    } catch {
      // argon2 throws when it cannot parse the hash; a malformed hash simply matches no password.
      return false;
    }
  }
}
