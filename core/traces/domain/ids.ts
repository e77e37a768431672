import { randomFillSync } from 'node:crypto';

// Span and trace ids come from a pool of random bytes, refilled 4 KiB at a time: one system call per few hundred ids.
const pool = Buffer.alloc(4096);
let offset = pool.length;

function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/** 16 random bytes in hex (W3C trace id). */
export const newTraceId = (): string => randomHex(16);
/** 8 random bytes in hex (W3C span id). */
export const newSpanId = (): string => randomHex(8);
