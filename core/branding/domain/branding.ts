import type { ThemeOverrides } from '../../themes/domain/theme';

export const WIDGET_POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const;
export type WidgetPosition = (typeof WIDGET_POSITIONS)[number];
export const BRAND_COLOR_NAMES = ['primary', 'secondary', 'accent', 'background', 'text'] as const;
/** SPEC 8: custom CSS in branding, at most 5 KB (counted in UTF-8 bytes). */
export const CUSTOM_CSS_MAX_BYTES = 5 * 1024;

/** An application's branding (SPEC 2.11), applied over its theme by the widget and the hosted page. */
export interface Branding {
  colors: Partial<Record<(typeof BRAND_COLOR_NAMES)[number], string>>;
  typography: { bodyFont?: string; headingFont?: string };
  widget: { position?: WidgetPosition; borderRadius?: string; welcomeMessage?: string; placeholder?: string };
  email: { fromName?: string; replyTo?: string; headerLogoUrl?: string; footerText?: string };
  /** As the owner wrote it. */
  customCss: string;
  /** The same stylesheet as the parser re-wrote it (no comments, normalised): what pages receive. */
  compiledCss: string;
  showAttribution: boolean;
  updatedAt: Date | null;
}

export const defaultBranding = (): Branding => ({
  colors: {},
  typography: {},
  widget: {},
  email: {},
  customCss: '',
  compiledCss: '',
  showAttribution: true,
  updatedAt: null,
});

export interface BrandingView {
  applicationId: string;
  colors: Branding['colors'];
  typography: Branding['typography'];
  widget: Branding['widget'];
  email: Branding['email'];
  customCss: string;
  showAttribution: boolean;
  updatedAt: string | null;
}

export const toBrandingView = (applicationId: string, b: Branding): BrandingView => ({
  applicationId,
  colors: b.colors,
  typography: b.typography,
  widget: b.widget,
  email: b.email,
  customCss: b.customCss,
  showAttribution: b.showAttribution,
  updatedAt: b.updatedAt?.toISOString() ?? null,
});

/** What the widget and the hosted page receive: presentation only, no e-mail settings. */
export interface PublicBranding {
  position: WidgetPosition | null;
  welcomeMessage: string | null;
  placeholder: string | null;
  customCss: string;
  showAttribution: boolean;
}

/** Branding as theme overrides: colours, body and heading fonts, the corner radius. */
export function brandingOverrides(b: Branding): ThemeOverrides {
  const overrides: ThemeOverrides = {};
  if (Object.keys(b.colors).length) overrides.colors = { ...b.colors };
  const typography: Record<string, string> = {};
  if (b.typography.bodyFont) typography.fontFamily = b.typography.bodyFont;
  if (b.typography.headingFont) typography.headingFontFamily = b.typography.headingFont;
  if (Object.keys(typography).length) overrides.typography = typography;
  if (b.widget.borderRadius) overrides.layout = { borderRadius: b.widget.borderRadius };
  return overrides;
}
