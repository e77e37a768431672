import * as yup from 'yup';
import { str } from '../../shared/validation';
import { SLUG_PATTERN } from './application';

/** An origin as browsers send it: scheme, host and optional port, nothing else. */
export function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

export const nameField = () => str().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters');
export const descriptionField = () => str().max(2000, 'description must be at most 2000 characters');
export const slugField = () =>
  str()
    // yup's lowercase() calls toLowerCase on whatever was sent (a number too); the type check comes later.
    .transform((value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value))
    .matches(SLUG_PATTERN, 'slug must be 3-60 lowercase letters, digits or hyphens, starting and ending with a letter or digit');
export const allowedOriginsField = () =>
  yup
    .array()
    .of(str().required().test('origin', 'each allowed origin must look like https://example.com', (v) => !!v && isOrigin(v)))
    .max(50, 'at most 50 allowed origins')
    .strict();
