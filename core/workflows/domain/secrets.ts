import { ValidationError } from '../../shared/errors';

/** Names of a workflow's secrets, read in `http` headers as `{{secrets.NAME}}`. */
export const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
export const MAX_SECRETS = 20;
export const MAX_SECRET_LENGTH = 4096;

/** What a sealed secret is bound to: its workflow and its name (a value copied elsewhere no longer opens). */
export const workflowSecretAad = (workflowId: string, name: string): string => `workflow-secret:${workflowId}:${name}`;

/**
 * Reads `secrets` of a create or change: name → value, or (changes only) null to remove it. Answers the
 * values to seal and the names to remove; names and lengths are checked, values never echoed.
 */
export function parseSecrets(raw: unknown, allowRemoval: boolean): { set: Record<string, string>; remove: string[] } {
  const set: Record<string, string> = {};
  const remove: string[] = [];
  if (raw === undefined) return { set, remove };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw ValidationError.field('secrets', 'secrets must be an object of names and values');
  const entries = Object.entries(raw);
  if (entries.length > MAX_SECRETS) throw ValidationError.field('secrets', `a workflow holds at most ${MAX_SECRETS} secrets`);
  for (const [name, value] of entries) {
    if (!SECRET_NAME.test(name)) throw ValidationError.field(`secrets.${name.slice(0, 64)}`, 'secret names start with a letter and hold up to 64 letters, digits or _');
    if (value === null && allowRemoval) remove.push(name);
    else if (typeof value !== 'string' || value === '' || value.length > MAX_SECRET_LENGTH || /[\r\n]/.test(value)) {
      throw ValidationError.field(`secrets.${name}`, `secret ${name} must be a single-line text of 1 to ${MAX_SECRET_LENGTH} characters${allowRemoval ? ', or null to remove it' : ''}`);
    } else set[name] = value;
  }
  return { set, remove };
}
