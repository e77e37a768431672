import { ApiError } from '../../lib/errors';

/** The create form's fields, and the API's `details[].path` prefixes each one shows. */
const FIELDS = {
  name: ['manifest.name'],
  displayName: ['manifest.displayName'],
  version: ['manifest.version'],
  description: ['manifest.description'],
  main: ['manifest.main'],
  hosts: ['manifest.permissions.hosts', 'manifest.permissions'],
  events: ['manifest.permissions.events'],
  settings: ['manifest.settings'],
  source: ['source'],
} as const;
export type FormField = keyof typeof FIELDS;

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);

/**
 * The API's 400 spread over the form: each detail on the field it names (`manifest.settings.words.type` on
 * Settings, with the part below the field kept in the text), the rest (and a message without details) apart.
 */
export function manifestErrors(error: unknown): { fields: Partial<Record<FormField, string>>; other: string[] } {
  const fields: Partial<Record<FormField, string>> = {};
  const other: string[] = [];
  if (!(error instanceof ApiError)) return { fields, other };
  for (const detail of error.details) {
    const field = (Object.keys(FIELDS) as FormField[]).find((f) => FIELDS[f].some((p) => under(detail.path, p)));
    if (!field) {
      // The message names its field in words already (lib/errors.ts), so the path is not repeated before it.
      other.push(detail.message);
      continue;
    }
    const prefix = FIELDS[field].find((p) => under(detail.path, p))!;
    const below = detail.path.slice(prefix.length).replace(/^\./, '');
    const text = below ? `${below}: ${detail.message}` : detail.message;
    fields[field] = fields[field] ? `${fields[field]} ${text}` : text;
  }
  if (!error.details.length) other.push(error.message);
  return { fields, other };
}
