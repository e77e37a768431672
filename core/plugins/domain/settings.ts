import { ValidationError, type ErrorDetail } from '../../shared/errors';
import { matchesType, type SettingSpec } from './manifest';

/** Settings split for storage: plain values as JSON, secret values to be sealed one by one. */
export interface CheckedSettings {
  plain: Record<string, unknown>;
  secrets: Record<string, string>;
}

const MAX_SETTINGS_BYTES = 64 * 1024;

/**
 * Checks an installation's settings against the manifest: unknown names, wrong types and missing required
 * values are 400s naming `settings.<name>`; defaults fill what is not given.
 */
export function checkSettings(specs: Record<string, SettingSpec>, input: unknown): CheckedSettings {
  const given = input ?? {};
  if (given === null || typeof given !== 'object' || Array.isArray(given)) throw ValidationError.field('settings', 'settings must be an object');
  if (JSON.stringify(given).length > MAX_SETTINGS_BYTES) throw ValidationError.field('settings', 'settings must be at most 64 KB');
  const details: ErrorDetail[] = [];
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const name of Object.keys(given)) {
    if (!specs[name]) details.push({ path: `settings.${name}`, message: `settings.${name} is not a setting of this plugin` });
  }
  for (const [name, spec] of Object.entries(specs)) {
    const value = (given as Record<string, unknown>)[name];
    if (value === undefined || value === null) {
      if (spec.required) details.push({ path: `settings.${name}`, message: `settings.${name} is required` });
      else if (spec.default !== undefined) plain[name] = spec.default;
      continue;
    }
    if (!matchesType(spec, value)) {
      details.push({ path: `settings.${name}`, message: `settings.${name} must be of type ${spec.type}${spec.items ? ` of ${spec.items}` : ''}` });
      continue;
    }
    if (spec.secret) secrets[name] = value as string;
    else plain[name] = value;
  }
  if (details.length) throw new ValidationError(details.map((d) => d.message).join('; '), details);
  return { plain, secrets };
}

/** What the API shows of settings: plain values, and for each secret only that it is set. */
export function visibleSettings(specs: Record<string, SettingSpec>, plain: Record<string, unknown>, secretNames: string[]): Record<string, unknown> {
  const shown: Record<string, unknown> = { ...plain };
  for (const name of secretNames) if (specs[name]?.secret) shown[name] = { secret: true, set: true };
  return shown;
}
