import { createHash } from 'node:crypto';

/** The largest package the marketplace stores (a ZIP as sent, or a theme's definition as JSON). */
export const MAX_PACKAGE_BYTES = 512 * 1024;

export const CHECKSUM = /^sha256:[0-9a-f]{64}$/;

/** `sha256:<hex>` of the bytes. */
export const checksumOf = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
