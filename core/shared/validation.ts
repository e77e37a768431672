import * as yup from 'yup';
import { ValidationError } from './errors';
import { canonicalId, isUuid } from './ids';

/**
 * Validates untrusted input against a yup schema. Unknown keys are stripped, types are not coerced
 * (a number sent as a string is an error), and every failure is reported with its path.
 */
export async function validate<S extends yup.AnyObjectSchema>(schema: S, input: unknown): Promise<yup.InferType<S>> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw new ValidationError('Request body must be a JSON object');
  }
  try {
    // Every test of ours is synchronous; yup's synchronous path skips a promise per field and test.
    return schema.validateSync(knownFieldsOnly(schema, input), { abortEarly: false, stripUnknown: true, strict: false });
  } catch (error) {
    if (error instanceof yup.ValidationError) {
      const details = (error.inner.length ? error.inner : [error]).map((e) => ({
        path: e.path ?? '',
        message: e.message,
      }));
      throw new ValidationError(details.map((d) => d.message).join('; '), details);
    }
    throw error;
  }
}

/**
 * The input with only the keys its schema declares as its own fields, at every level of object and
 * array schemas. yup looks each input key up in a plain `fields` object, so a key such as `constructor`
 * or `toString` would find `Object.prototype`'s member and fail inside yup; unknown keys are stripped
 * anyway. Fields without a known shape (`mixed`) pass through for their own checks.
 */
function knownFieldsOnly(schema: unknown, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const s = schema as { type?: string; fields?: Record<string, unknown>; innerType?: unknown };
  if (s.type === 'array' && Array.isArray(value)) {
    return s.innerType ? value.map((item) => knownFieldsOnly(s.innerType, item)) : value;
  }
  if (s.type !== 'object' || !s.fields || Array.isArray(value)) return value;
  const known: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (Object.hasOwn(s.fields, key)) known[key] = knownFieldsOnly(s.fields[key], (value as Record<string, unknown>)[key]);
  }
  return known;
}

/** Strings are trimmed; numbers and booleans must be sent as such (no "1" for 1). */
export const str = () =>
  yup.string().transform((_value: unknown, original: unknown) => (typeof original === 'string' ? original.trim() : original));
export const num = () => yup.number().transform((_value: unknown, original: unknown) => original);
export const bool = () => yup.boolean().transform((_value: unknown, original: unknown) => original);
/**
 * An id sent in a body: a UUID in any case is taken in its canonical lower-case spelling (paths and
 * queries are canonicalized by the HTTP layer), so no cache or lookup ever sees two spellings of one id.
 */
export const idField = () =>
  str().transform((value: unknown) => (typeof value === 'string' ? (canonicalId(value) ?? value) : value));

/** An id field that must hold a UUID when given (a stored reference, not a name to look up). */
export const uuidField = (name: string) =>
  idField().test('uuid', `${name} must be a UUID`, (value) => value === undefined || value === null || isUuid(value));
