import type { Theme, ThemeDefinition } from './theme';

const LIGHT: ThemeDefinition = {
  colors: {
    primary: '#2563eb',
    secondary: '#f3f4f6',
    accent: '#7c3aed',
    background: '#ffffff',
    surface: '#f9fafb',
    text: '#1f2937',
    textMuted: '#6b7280',
    border: '#e5e7eb',
    success: '#16a34a',
    warning: '#d97706',
    error: '#dc2626',
    info: '#0284c7',
    userBubble: '#2563eb',
    assistantBubble: '#f3f4f6',
  },
  typography: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
    headingFontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
    fontSize: '14px',
    lineHeight: '1.5',
  },
  layout: { sidebarPosition: 'left', maxWidth: '960px', borderRadius: '12px', spacing: '16px', density: 'comfortable' },
  custom: {},
};

const DARK: ThemeDefinition = {
  ...LIGHT,
  colors: {
    primary: '#3b82f6',
    secondary: '#1f2937',
    accent: '#a78bfa',
    background: '#111827',
    surface: '#1f2937',
    text: '#f3f4f6',
    textMuted: '#9ca3af',
    border: '#374151',
    success: '#22c55e',
    warning: '#f59e0b',
    error: '#f87171',
    info: '#38bdf8',
    userBubble: '#3b82f6',
    assistantBubble: '#1f2937',
  },
};

const MINIMAL: ThemeDefinition = {
  colors: {
    primary: '#111111',
    secondary: '#f5f5f5',
    accent: '#555555',
    background: '#ffffff',
    surface: '#ffffff',
    text: '#111111',
    textMuted: '#737373',
    border: '#e5e5e5',
    success: '#15803d',
    warning: '#a16207',
    error: '#b91c1c',
    info: '#1d4ed8',
    userBubble: '#111111',
    assistantBubble: '#f5f5f5',
  },
  typography: {
    fontFamily: '"Helvetica Neue", Helvetica, Arial, sans-serif',
    headingFontFamily: '"Helvetica Neue", Helvetica, Arial, sans-serif',
    fontSize: '14px',
    lineHeight: '1.6',
  },
  layout: { sidebarPosition: 'left', maxWidth: '720px', borderRadius: '4px', spacing: '12px', density: 'compact' },
  custom: {},
};

const VIBRANT: ThemeDefinition = {
  colors: {
    primary: '#db2777',
    secondary: '#fdf2f8',
    accent: '#f59e0b',
    background: '#fffbf5',
    surface: '#ffffff',
    text: '#1e1b4b',
    textMuted: '#6b7280',
    border: '#fbcfe8',
    success: '#059669',
    warning: '#ea580c',
    error: '#e11d48',
    info: '#7c3aed',
    userBubble: '#db2777',
    assistantBubble: '#ede9fe',
  },
  typography: {
    fontFamily: '"Trebuchet MS", "Segoe UI", Roboto, sans-serif',
    headingFontFamily: 'Georgia, "Times New Roman", serif',
    fontSize: '15px',
    lineHeight: '1.5',
  },
  layout: { sidebarPosition: 'right', maxWidth: '1040px', borderRadius: '20px', spacing: '18px', density: 'spacious' },
  custom: {},
};

const preset = (id: string, name: string, description: string, definition: ThemeDefinition): Theme => ({
  id,
  ownerId: null,
  name,
  description,
  extend: null,
  overrides: {},
  definition,
  published: true,
  createdAt: new Date(0),
});

/** The four built-in themes, addressed by these ids. */
export const PRESETS: readonly Theme[] = [
  preset('default', 'Default', 'Light, blue accents, system fonts', LIGHT),
  preset('dark', 'Dark', 'Dark surfaces with light text', DARK),
  preset('minimal', 'Minimal', 'Black and white, compact, small radii', MINIMAL),
  preset('vibrant', 'Vibrant', 'Pink and amber, rounded, spacious', VIBRANT),
];

export const DEFAULT_THEME_ID = 'default';

export function presetById(id: string): Theme | undefined {
  return PRESETS.find((p) => p.id === id);
}
