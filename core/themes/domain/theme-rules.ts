import { ValidationError, type ErrorDetail } from '../../shared/errors';
import {
  COLOR_NAMES,
  DENSITIES,
  LAYOUT_NAMES,
  SIDEBAR_POSITIONS,
  TYPOGRAPHY_NAMES,
  type ThemeDefinition,
  type ThemeOverrides,
} from './theme';

// Values end up inside CSS declarations, so only plain value syntaxes pass: nothing that could close a
// declaration or a block, load a resource, or run script (no `;`, braces, `url(`, backslashes).
const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const COLOR_FUNCTION = /^(rgba?|hsla?)\(([^()]*)\)$/i;
const NUMBER_WITH_UNIT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:%|deg|rad|turn|grad)?$/i;
const LENGTH = /^(?:0|\+?(?:\d{1,5}(?:\.\d{1,4})?|\.\d{1,4})(?:px|rem|em|%|vw|vh|vmin|vmax|ch|ex|pt))$/;
const NUMBER = /^\+?(?:\d{1,3}(?:\.\d{1,4})?|\.\d{1,4})$/;
const FONT_FAMILY = /^[\w\s,'"-]{1,200}$/;
const CUSTOM_NAME = /^[a-zA-Z][a-zA-Z0-9-]{0,39}$/;
const MAX_CUSTOM = 50;

export function isColor(value: string): boolean {
  if (HEX.test(value)) return true;
  const fn = COLOR_FUNCTION.exec(value);
  if (!fn) return false;
  const args = fn[2]!.trim().split(/\s*[,/]\s*|\s+/).filter(Boolean);
  return args.length >= 3 && args.length <= 4 && args.every((a) => NUMBER_WITH_UNIT.test(a));
}
export const isLength = (value: string): boolean => LENGTH.test(value);
const isFontFamily = (value: string): boolean => FONT_FAMILY.test(value) && value.trim() !== '';

type Check = { test: (v: string) => boolean; message: string };
const COLOR: Check = { test: isColor, message: 'must be a colour as #hex, rgb() or hsl()' };
const SIZE: Check = { test: isLength, message: 'must be a CSS length such as 16px, 1rem or 100%' };
const FONT: Check = { test: isFontFamily, message: 'must be a font family list (letters, digits, spaces, commas, quotes, hyphens)' };
const oneOf = (values: readonly string[]): Check => ({ test: (v) => values.includes(v), message: `must be one of ${values.join(', ')}` });

const FIELD_CHECKS: Record<'colors' | 'typography' | 'layout', Record<string, Check>> = {
  colors: Object.fromEntries(COLOR_NAMES.map((n) => [n, COLOR])),
  typography: {
    fontFamily: FONT,
    headingFontFamily: FONT,
    fontSize: SIZE,
    lineHeight: { test: (v) => NUMBER.test(v) || isLength(v), message: 'must be a number such as 1.5 or a CSS length' },
  },
  layout: {
    sidebarPosition: oneOf(SIDEBAR_POSITIONS),
    maxWidth: SIZE,
    borderRadius: SIZE,
    spacing: SIZE,
    density: oneOf(DENSITIES),
  },
};
const SECTIONS = ['colors', 'typography', 'layout', 'custom'] as const;
const CUSTOM_VALUE: Check = {
  test: (v) => isColor(v) || isLength(v) || NUMBER.test(v) || isFontFamily(v),
  message: 'must be a colour, a CSS length, a number or a font family list',
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks the shape of partial overrides (any section, any field of it, strings only; custom variables
 * named like CSS identifiers) and answers them without unknown keys. Field values are checked after
 * merging, by `validateDefinition`. `prefix` names the fields in errors (`customization.colors.primary`).
 */
export function parseOverrides(input: unknown, prefix = ''): ThemeOverrides {
  const details: ErrorDetail[] = [];
  const out: Record<string, Record<string, string>> = {};
  const fail = (path: string, message: string) => details.push({ path: prefix + path, message: `${prefix + path} ${message}` });
  if (input === undefined || input === null) return {};
  if (!isObject(input)) throw ValidationError.field(prefix || 'theme', `${prefix || 'theme'} must be an object`);
  for (const section of SECTIONS) {
    const value = input[section];
    if (value === undefined) continue;
    if (!isObject(value)) {
      fail(section, 'must be an object');
      continue;
    }
    const entries = Object.entries(value);
    if (section === 'custom' && entries.length > MAX_CUSTOM) fail(section, `may hold at most ${MAX_CUSTOM} variables`);
    const section_: Record<string, string> = {};
    for (const [key, v] of entries) {
      const path = `${section}.${key}`;
      if (section === 'custom' ? !CUSTOM_NAME.test(key) : !(key in FIELD_CHECKS[section])) {
        fail(path, section === 'custom' ? 'is not a valid variable name (a letter, then letters, digits or hyphens)' : `is not a theme field`);
      } else if (typeof v !== 'string') {
        fail(path, 'must be a string');
      } else {
        section_[key] = v.trim();
      }
    }
    out[section] = section_;
  }
  if (details.length) throw new ValidationError(details.map((d) => d.message).join('; '), details);
  return out as ThemeOverrides;
}

/** `base` with `overrides` merged in, section by section and field by field; neither is changed. */
export function mergeTheme(base: ThemeDefinition, ...overrides: ThemeOverrides[]): ThemeDefinition {
  const merged = {
    colors: { ...base.colors },
    typography: { ...base.typography },
    layout: { ...base.layout },
    custom: { ...base.custom },
  } as ThemeDefinition;
  for (const o of overrides) {
    // The user's bubble follows the primary colour unless it was made different on purpose.
    const follows = merged.colors.primary !== undefined && merged.colors.userBubble === merged.colors.primary && o.colors?.primary !== undefined && o.colors.userBubble === undefined;
    Object.assign(merged.colors, o.colors);
    if (follows && isColor(merged.colors.primary)) merged.colors.userBubble = merged.colors.primary;
    Object.assign(merged.typography, o.typography);
    Object.assign(merged.layout, o.layout);
    Object.assign(merged.custom, o.custom);
  }
  return merged;
}

/** Every required field present and valid, else a 400 naming each bad field. */
export function validateDefinition(definition: ThemeDefinition, prefix = ''): ThemeDefinition {
  const details: ErrorDetail[] = [];
  const add = (path: string, message: string) => details.push({ path: prefix + path, message: `${prefix + path} ${message}` });
  for (const section of ['colors', 'typography', 'layout'] as const) {
    const values = definition[section] as Record<string, unknown>;
    for (const [name, check] of Object.entries(FIELD_CHECKS[section])) {
      const value = values[name];
      if (typeof value !== 'string' || value === '') add(`${section}.${name}`, 'is required');
      else if (!check.test(value)) add(`${section}.${name}`, check.message);
    }
  }
  for (const [name, value] of Object.entries(definition.custom)) {
    if (!CUSTOM_NAME.test(name)) add(`custom.${name}`, 'is not a valid variable name');
    else if (!CUSTOM_VALUE.test(value)) add(`custom.${name}`, CUSTOM_VALUE.message);
  }
  if (details.length) throw new ValidationError(details.map((d) => d.message).join('; '), details);
  return definition;
}

export const kebab = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** The CSS custom properties of a definition: `--ap-color-*`, `--ap-<typography>`, `--ap-layout-*`, `--ap-custom-*`. */
export function cssVariables(definition: ThemeDefinition): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const name of COLOR_NAMES) vars[`--ap-color-${kebab(name)}`] = definition.colors[name];
  for (const name of TYPOGRAPHY_NAMES) vars[`--ap-${kebab(name)}`] = definition.typography[name];
  for (const name of LAYOUT_NAMES) vars[`--ap-layout-${kebab(name)}`] = definition.layout[name];
  for (const [name, value] of Object.entries(definition.custom)) vars[`--ap-custom-${kebab(name)}`] = value;
  return vars;
}

/** A stylesheet declaring the variables on `selector`. */
export function toCss(vars: Record<string, string>, selector = ':root'): string {
  return `${selector} {\n${Object.entries(vars).map(([k, v]) => `  ${k}: ${v};`).join('\n')}\n}\n`;
}
