import { createCipheriv, createDecipheriv, createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { ConflictError } from '../../core/shared/errors';
import { SEALED_SECRET_INTEGRITY_MESSAGE, type SecretBox } from '../../core/shared/secret-box.port';

export interface AesGcmSecretBoxOptions {
  /** ENCRYPTION_KEY: 64 hex characters (32 bytes). New values are sealed with it. */
  key: string;
  /** Keys being rotated away from: still opened, never used to seal. */
  previousKeys?: readonly string[];
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEX64 = /^[0-9a-fA-F]{64}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

interface Parsed {
  keyId: string;
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/**
 * AES-256-GCM secret box. Sealed text is `v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts), where
 * keyId is an HMAC fingerprint of the key, so a box holding several keys knows which one sealed a value.
 * The version, keyId and caller's associated data are all authenticated.
 */
export class AesGcmSecretBox implements SecretBox {
  // Private fields and KeyObjects keep key bytes out of util.inspect, JSON and logs.
  readonly #currentKeyId: string;
  readonly #keys = new Map<string, KeyObject>();

  constructor(options: AesGcmSecretBoxOptions) {
    const current = toKey(options.key, 'ENCRYPTION_KEY');
    this.#currentKeyId = fingerprint(current);
    this.#keys.set(this.#currentKeyId, current);
    (options.previousKeys ?? []).forEach((hex, i) => {
      const key = toKey(hex, `previous ENCRYPTION_KEY #${i + 1}`);
      const id = fingerprint(key);
      if (!this.#keys.has(id)) this.#keys.set(id, key);
    });
  }

  seal(plaintext: string, associatedData: string): string {
    const keyId = this.#currentKeyId;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#keys.get(keyId)!, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aadFor(keyId, associatedData));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, keyId, iv, ciphertext, tag].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string, associatedData: string): string {
    const parsed = parse(sealed);
    const key = parsed && this.#keys.get(parsed.keyId);
    if (!parsed || !key) throw integrityError();
    const decipher = createDecipheriv('aes-256-gcm', key, parsed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aadFor(parsed.keyId, associatedData));
    decipher.setAuthTag(parsed.tag);
    try {
      return Buffer.concat([decipher.update(parsed.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      // final() throws when the tag does not match: tampered bytes, other associated data or a same-id key.
      throw integrityError();
    }
  }

  /** True when `sealed` was made with the current key, i.e. a rotation job can skip it. */
  sealedWithCurrentKey(sealed: string): boolean {
    return parse(sealed)?.keyId === this.#currentKeyId;
  }

  /** Opens with whichever held key sealed it and seals again with the current key (key rotation). */
  reseal(sealed: string, associatedData: string): string {
    return this.seal(this.open(sealed, associatedData), associatedData);
  }
}

/** Moves a sealed value from one box's keys to another's, e.g. from the old ENCRYPTION_KEY to a new one. */
export function rotateSealed(sealed: string, associatedData: string, from: AesGcmSecretBox, to: AesGcmSecretBox): string {
  return to.seal(from.open(sealed, associatedData), associatedData);
}

function toKey(hex: string, name: string): KeyObject {
  // Never echo the value: it is (or is close to) the key itself.
  if (typeof hex !== 'string' || !HEX64.test(hex)) throw new Error(`${name} must be 64 hexadecimal characters (32 bytes)`);
  return createSecretKey(Buffer.from(hex, 'hex'));
}

/** A short, one-way name for a key; a separate HMAC label keeps it unrelated to any ciphertext. */
function fingerprint(key: KeyObject): string {
  return createHmac('sha256', key).update('aes-gcm-secret-box key id').digest().subarray(0, 6).toString('base64url');
}

function aadFor(keyId: string, associatedData: string): Buffer {
  // The prefix is fixed-shape (no dots inside keyId), so prefix and caller data cannot be confused.
  return Buffer.from(`${VERSION}.${keyId}.${associatedData}`, 'utf8');
}

function parse(sealed: string): Parsed | undefined {
  if (typeof sealed !== 'string') return undefined;
  const parts = sealed.split('.');
  if (parts.length !== 5 || parts[0] !== VERSION) return undefined;
  const [, keyId, ...encoded] = parts;
  const decoded = encoded.map(decodeStrict);
  const [iv, ciphertext, tag] = decoded;
  if (!keyId || !iv || !ciphertext || !tag || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
  return { keyId, iv, ciphertext, tag };
}

/** Node's base64url decoder skips stray characters; only the canonical spelling of the bytes is accepted. */
function decodeStrict(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function integrityError(): ConflictError {
  return new ConflictError(SEALED_SECRET_INTEGRITY_MESSAGE);
}
