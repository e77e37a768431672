import { ValidationError, type ErrorDetail } from '../../shared/errors';

/**
 * `{{name}}` or `{{ name }}`: a letter or underscore, then letters, digits, underscores, dots or
 * hyphens. Anything else between braces (`{{ 1 + 1 }}`) is plain text, never evaluated.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]{0,63})\s*\}\}/g;

export const MAX_VARIABLES = 50;
export const MAX_VALUE_LENGTH = 20_000;
export const MAX_RENDERED_LENGTH = 100_000;

/** The placeholder names of a template, each once, in order of first appearance. */
export function extractVariables(content: string): string[] {
  return [...new Set([...content.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** A value the caller may give a placeholder: text, or a number or boolean written as text. */
export type VariableValue = string | number | boolean;

/**
 * Replaces every placeholder with its value in one pass over the template: substituted text is
 * never scanned again, so a value containing `{{other}}` stays literally as it is. Placeholders
 * without a value are a 400 naming each of them; unused values are ignored.
 */
export function renderTemplate(content: string, values: Record<string, VariableValue>): string {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(values, name);
  const missing = extractVariables(content).filter((name) => !has(name));
  if (missing.length) {
    const details: ErrorDetail[] = missing.map((name) => ({ path: `variables.${name}`, message: `No value was given for the placeholder {{${name}}}` }));
    throw new ValidationError(`Missing values for: ${missing.join(', ')}`, details);
  }
  let length = content.length;
  const rendered = content.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = String(values[name]);
    length += value.length - placeholder.length;
    if (length > MAX_RENDERED_LENGTH) {
      throw ValidationError.field('variables', `The rendered text would be longer than ${MAX_RENDERED_LENGTH} characters`);
    }
    return value;
  });
  return rendered;
}
