/** A theme definition (EXTENSIONS.md "Themes"): 14 colours, 4 typography values, 5 layout values, custom variables. */
export const COLOR_NAMES = [
  'primary',
  'secondary',
  'accent',
  'background',
  'surface',
  'text',
  'textMuted',
  'border',
  'success',
  'warning',
  'error',
  'info',
  'userBubble',
  'assistantBubble',
] as const;
export const TYPOGRAPHY_NAMES = ['fontFamily', 'headingFontFamily', 'fontSize', 'lineHeight'] as const;
export const LAYOUT_NAMES = ['sidebarPosition', 'maxWidth', 'borderRadius', 'spacing', 'density'] as const;
export const SIDEBAR_POSITIONS = ['left', 'right'] as const;
export const DENSITIES = ['compact', 'comfortable', 'spacious'] as const;

export type ColorName = (typeof COLOR_NAMES)[number];
export type TypographyName = (typeof TYPOGRAPHY_NAMES)[number];
export type LayoutName = (typeof LAYOUT_NAMES)[number];

export interface ThemeDefinition {
  colors: Record<ColorName, string>;
  typography: Record<TypographyName, string>;
  layout: { sidebarPosition: (typeof SIDEBAR_POSITIONS)[number]; maxWidth: string; borderRadius: string; spacing: string; density: (typeof DENSITIES)[number] };
  custom: Record<string, string>;
}

/** Part of a definition, merged over a base theme: any section, any field of it. */
export interface ThemeOverrides {
  colors?: Partial<Record<ColorName, string>>;
  typography?: Partial<Record<TypographyName, string>>;
  layout?: Partial<Record<LayoutName, string>>;
  custom?: Record<string, string>;
}

/** A stored theme (presets have `ownerId` null and their name as id). */
export interface Theme {
  id: string;
  ownerId: string | null;
  name: string;
  description: string;
  /** The theme it was built on (a preset name or theme id), null for presets. */
  extend: string | null;
  /** The overrides as given, merged over `extend` into `definition`. */
  overrides: ThemeOverrides;
  definition: ThemeDefinition;
  published: boolean;
  createdAt: Date;
}

export interface ThemeView {
  id: string;
  name: string;
  description: string;
  preset: boolean;
  /** True for the caller's own themes. */
  own: boolean;
  published: boolean;
  extend: string | null;
  definition: ThemeDefinition;
  variables: Record<string, string>;
  createdAt: string | null;
}
