import * as yup from 'yup';
import { ValidationError } from '../../shared/errors';
import { validate } from '../../shared/validation';

/** One per-installation setting a plugin declares (EXTENSIONS.md "What a plugin is"). */
export interface SettingSpec {
  type: 'string' | 'number' | 'boolean' | 'array' | 'object';
  /** Element type of an array setting. */
  items?: 'string' | 'number' | 'boolean';
  secret?: boolean;
  required?: boolean;
  default?: unknown;
  description?: string;
}

export interface PluginManifest {
  name: string;
  displayName: string;
  version: string;
  description: string;
  main: string;
  permissions: { hosts: string[]; events: string[] };
  settings: Record<string, SettingSpec>;
}

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
/** SemVer 2.0.0 (semver.org's recommended expression). */
export const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
/** A DNS host name (no scheme, port, path, wildcard or IP literal): fetch targets are names, resolved and checked. */
const HOST_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/i;
const EVENT_NAME = /^[a-z_]+\.[a-z_]+$/;
/** A relative path of the package (folders allowed, no segment starting with a dot). */
const MAIN_FILE = /^(?:[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}\/){0,4}[A-Za-z0-9_-][A-Za-z0-9_.-]{0,99}\.js$/;
const SETTING_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const SETTING_TYPES = ['string', 'number', 'boolean', 'array', 'object'] as const;
const ITEM_TYPES = ['string', 'number', 'boolean'] as const;
const MAX_SETTINGS = 50;

const settingSchema = yup
  .object({
    type: yup.mixed<SettingSpec['type']>().oneOf([...SETTING_TYPES], `type must be one of ${SETTING_TYPES.join(', ')}`).required('type is required'),
    items: yup.mixed<'string' | 'number' | 'boolean'>().oneOf([...ITEM_TYPES], `items must be one of ${ITEM_TYPES.join(', ')}`),
    secret: yup.boolean().strict(),
    required: yup.boolean().strict(),
    default: yup.mixed(),
    description: yup.string().strict().max(500),
  })
  .noUnknown(true, 'unknown setting attribute: ${unknown}');

const schema = yup.object({
  name: yup.string().strict().required('manifest.name is required').matches(SLUG, 'manifest.name must be a slug (lower-case letters, digits and dashes, at most 64)'),
  displayName: yup.string().strict().max(100, 'manifest.displayName must be at most 100 characters'),
  version: yup
    .string()
    .strict()
    .required('manifest.version is required')
    .matches(SEMVER, 'manifest.version must be a SemVer version such as 1.2.0')
    .test('size', 'manifest.version must be a SemVer version such as 1.2.0 (numbers up to 9007199254740991)', (v) => v === undefined || !SEMVER.test(v) || SEMVER.exec(v)!.slice(1, 4).every((n) => Number.isSafeInteger(Number(n)))),
  description: yup.string().strict().max(2000, 'manifest.description must be at most 2000 characters'),
  main: yup.string().strict().required('manifest.main is required').matches(MAIN_FILE, 'manifest.main must name a .js file'),
  permissions: yup
    .object({
      hosts: yup.array(yup.string().strict().matches(HOST_NAME, 'manifest.permissions.hosts must hold host names such as api.example.com (no scheme, port, path or IP address)').required()).max(20),
      events: yup.array(yup.string().strict().matches(EVENT_NAME, 'manifest.permissions.events must hold event types such as message.completed').required()).max(20),
    })
    .default({}),
  settings: yup.object().default({}),
});

/** Checks a manifest and answers it in its full shape, or a 400 whose details name each bad field (`manifest.<path>`). */
export async function parseManifest(input: unknown): Promise<PluginManifest> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw ValidationError.field('manifest', 'manifest must be a JSON object');
  let body: yup.InferType<typeof schema>;
  try {
    body = await validate(schema, input);
  } catch (error) {
    if (error instanceof ValidationError) throw prefix(error, 'manifest');
    throw error;
  }
  const rawSettings = (input as { settings?: unknown }).settings ?? {};
  const settings = await parseSettingsSchema(rawSettings);
  return {
    name: body.name,
    displayName: body.displayName ?? body.name,
    version: body.version,
    description: body.description ?? '',
    main: body.main,
    permissions: { hosts: [...new Set((body.permissions.hosts ?? []).map((h) => h.toLowerCase()))], events: [...new Set(body.permissions.events ?? [])] },
    settings,
  };
}

async function parseSettingsSchema(raw: unknown): Promise<Record<string, SettingSpec>> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw ValidationError.field('manifest.settings', 'manifest.settings must be an object of setting definitions');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_SETTINGS) throw ValidationError.field('manifest.settings', `manifest.settings may declare at most ${MAX_SETTINGS} settings`);
  const out: Record<string, SettingSpec> = {};
  for (const [name, spec] of entries) {
    const path = `manifest.settings.${name}`;
    if (!SETTING_NAME.test(name)) throw ValidationError.field(path, `${path}: setting names start with a letter and hold letters, digits and _`);
    let parsed: SettingSpec;
    try {
      parsed = (await validate(settingSchema, spec)) as SettingSpec;
    } catch (error) {
      if (error instanceof ValidationError) throw prefix(error, path);
      throw error;
    }
    if (parsed.items && parsed.type !== 'array') throw ValidationError.field(`${path}.items`, `${path}.items applies to array settings only`);
    if (parsed.secret && parsed.type !== 'string') throw ValidationError.field(`${path}.secret`, `${path}: only string settings can be secret`);
    if (parsed.secret && parsed.default !== undefined) throw ValidationError.field(`${path}.default`, `${path}: a secret setting has no default`);
    if (parsed.default !== undefined && !matchesType(parsed, parsed.default)) throw ValidationError.field(`${path}.default`, `${path}.default must be of type ${parsed.type}`);
    out[name] = parsed;
  }
  return out;
}

export function matchesType(spec: SettingSpec, value: unknown): boolean {
  switch (spec.type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && (!spec.items || value.every((v) => typeof v === spec.items && (spec.items !== 'number' || Number.isFinite(v))));
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

function prefix(error: ValidationError, path: string): ValidationError {
  const details = error.details.length
    ? error.details.map((d) => ({ path: d.path ? `${path}.${d.path}` : path, message: d.message }))
    : [{ path, message: error.message }];
  return new ValidationError(details.map((d) => d.message).join('; '), details);
}
