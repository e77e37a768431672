import { randomUUID } from 'node:crypto';

const UUID_ANY_CASE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const newId = (): string => randomUUID();

/**
 * Ids arrive from URLs and bodies; anything that is not a UUID in its canonical (lower-case) spelling
 * cannot name a stored row. Paths and queries are canonicalized where they enter (the HTTP request-target
 * middleware) and id fields of bodies by `idField`, so another spelling here is refused, never looked up:
 * a cache keyed by the id as typed would otherwise hold one record under two keys.
 */
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);

/** The canonical spelling of a UUID given in any case, or undefined when the text is not a UUID. */
export const canonicalId = (value: string): string | undefined => (UUID_ANY_CASE.test(value) ? value.toLowerCase() : undefined);
