import { ValidationError } from '../../../core/shared/errors';
import { PRESETS, presetById } from '../../../core/themes/domain/presets';
import { COLOR_NAMES, LAYOUT_NAMES, TYPOGRAPHY_NAMES, type ThemeDefinition } from '../../../core/themes/domain/theme';
import { cssVariables, isColor, mergeTheme, parseOverrides, toCss, validateDefinition } from '../../../core/themes/domain/theme-rules';

const dark = () => presetById('dark')!.definition;

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).details.map((d) => d.path);
  }
  throw new Error('expected a ValidationError');
}

describe('theme presets', () => {
  it('has the four presets, each complete and valid', () => {
    expect(PRESETS.map((p) => p.id)).toEqual(['default', 'dark', 'minimal', 'vibrant']);
    for (const preset of PRESETS) {
      expect(() => validateDefinition(preset.definition)).not.toThrow();
      expect(Object.keys(preset.definition.colors)).toHaveLength(14);
    }
  });
});

describe('merging overrides', () => {
  it('deep-merges a partial override over a base, leaving the base untouched', () => {
    const base = dark();
    const merged = mergeTheme(base, { colors: { primary: '#ff0066' }, layout: { borderRadius: '4px' } });
    expect(merged.colors.primary).toBe('#ff0066');
    expect(merged.colors.background).toBe(base.colors.background);
    expect(merged.layout).toEqual({ ...base.layout, borderRadius: '4px' });
    expect(merged.typography).toEqual(base.typography);
    expect(base.colors.primary).toBe('#3b82f6');
  });

  it('lets the user bubble follow a new primary colour unless the theme made it different', () => {
    expect(mergeTheme(dark(), { colors: { primary: '#0a7d4f' } }).colors.userBubble).toBe('#0a7d4f');
    expect(mergeTheme(dark(), { colors: { primary: '#0a7d4f', userBubble: '#111111' } }).colors.userBubble).toBe('#111111');
    const distinct = mergeTheme(dark(), { colors: { userBubble: '#222222' } });
    expect(mergeTheme(distinct, { colors: { primary: '#0a7d4f' } }).colors.userBubble).toBe('#222222');
  });

  it('applies several layers in order, the last winning', () => {
    const merged = mergeTheme(dark(), { colors: { primary: '#111111' }, custom: { brand: '#222222' } }, { colors: { primary: '#333333' } });
    expect(merged.colors.primary).toBe('#333333');
    expect(merged.custom).toEqual({ brand: '#222222' });
  });
});

describe('validation', () => {
  it('names every missing required field of an incomplete definition', () => {
    const incomplete = mergeTheme({ colors: {}, typography: {}, layout: {}, custom: {} } as unknown as ThemeDefinition, { colors: { primary: '#fff' } });
    const fields = fieldsOf(() => validateDefinition(incomplete));
    expect(fields).toHaveLength(COLOR_NAMES.length - 1 + TYPOGRAPHY_NAMES.length + LAYOUT_NAMES.length);
    expect(fields).toContain('colors.textMuted');
    expect(fields).toContain('layout.density');
    expect(fields).not.toContain('colors.primary');
  });

  it.each([
    ['colors.primary', { colors: { primary: 'red; } body { display:none' } }],
    ['colors.primary', { colors: { primary: 'url(javascript:alert(1))' } }],
    ['colors.accent', { colors: { accent: 'rgb(1, 2)' } }],
    ['typography.fontSize', { typography: { fontSize: '16' } }],
    ['typography.fontFamily', { typography: { fontFamily: 'Inter; color: red' } }],
    ['typography.lineHeight', { typography: { lineHeight: 'tall' } }],
    ['layout.maxWidth', { layout: { maxWidth: 'calc(100% - 1px)' } }],
    ['layout.sidebarPosition', { layout: { sidebarPosition: 'top' } }],
    ['layout.density', { layout: { density: 'dense' } }],
    ['custom.brand', { custom: { brand: '}</style><script>' } }],
  ])('refuses %s in %j', (field, overrides) => {
    expect(fieldsOf(() => validateDefinition(mergeTheme(dark(), parseOverrides(overrides))))).toEqual([field]);
  });

  it.each(['#abc', '#abcd', '#a1b2c3', '#a1b2c3d4', 'rgb(0, 0, 0)', 'rgba(10,20,30,0.5)', 'rgb(10 20 30 / 50%)', 'hsl(210, 50%, 40%)', 'hsl(210deg 50% 40%)'])(
    'accepts the colour %s',
    (color) => expect(isColor(color)).toBe(true),
  );

  it('refuses unknown fields and non-string values in overrides, naming them', () => {
    expect(fieldsOf(() => parseOverrides({ colors: { primry: '#fff', text: 3 }, layout: 'wide', custom: { '1bad': '#fff' } }))).toEqual([
      'colors.primry',
      'colors.text',
      'layout',
      'custom.1bad',
    ]);
  });
});

describe('CSS variables', () => {
  it('names colours, typography, layout and custom values in kebab-case under --ap-', () => {
    const vars = cssVariables(mergeTheme(dark(), { custom: { brandGlow: '#00ff00', 'card-gap': '6px' } }));
    expect(vars['--ap-color-primary']).toBe('#3b82f6');
    expect(vars['--ap-color-text-muted']).toBe('#9ca3af');
    expect(vars['--ap-color-assistant-bubble']).toBe('#1f2937');
    expect(vars['--ap-font-family']).toContain('system-ui');
    expect(vars['--ap-heading-font-family']).toBeDefined();
    expect(vars['--ap-line-height']).toBe('1.5');
    expect(vars['--ap-layout-max-width']).toBe('960px');
    expect(vars['--ap-layout-sidebar-position']).toBe('left');
    expect(vars['--ap-custom-brand-glow']).toBe('#00ff00');
    expect(vars['--ap-custom-card-gap']).toBe('6px');
    expect(Object.keys(vars)).toHaveLength(14 + 4 + 5 + 2);
  });

  it('writes them as one rule', () => {
    expect(toCss({ '--ap-color-primary': '#fff', '--ap-layout-spacing': '8px' }, ':root')).toBe(':root {\n  --ap-color-primary: #fff;\n  --ap-layout-spacing: 8px;\n}\n');
  });
});
