import * as yup from 'yup';
import { ValidationError } from './errors';

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
    return schema.validateSync(input, { abortEarly: false, stripUnknown: true, strict: false });
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

/** Strings are trimmed; numbers and booleans must be sent as such (no "1" for 1). */
export const str = () =>
  yup.string().transform((_value: unknown, original: unknown) => (typeof original === 'string' ? original.trim() : original));
export const num = () => yup.number().transform((_value: unknown, original: unknown) => original);
export const bool = () => yup.boolean().transform((_value: unknown, original: unknown) => original);
