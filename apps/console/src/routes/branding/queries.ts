import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../api/client';
import type { components } from '../../api/schema';
import type { WidgetDraft } from '../../components/WidgetPreview';

export type Theme = components['schemas']['Theme'];
export type Branding = components['schemas']['Branding'];
export type BrandingInput = Omit<Branding, 'applicationId' | 'updatedAt'>;

export const COLOR_NAMES = ['primary', 'secondary', 'accent', 'background', 'surface', 'text', 'textMuted', 'border', 'success', 'warning', 'error', 'info', 'userBubble', 'assistantBubble'] as const;
export const TYPOGRAPHY_NAMES = ['fontFamily', 'headingFontFamily', 'fontSize', 'lineHeight'] as const;
export const LAYOUT_NAMES = ['sidebarPosition', 'maxWidth', 'borderRadius', 'spacing', 'density'] as const;
export const BRAND_COLORS = ['primary', 'secondary', 'accent', 'background', 'text'] as const;
export const POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const;

export interface ThemeDefinition {
  colors: Record<string, string>;
  typography: Record<string, string>;
  layout: Record<string, string>;
  custom?: Record<string, string>;
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** A definition's CSS custom properties, named as the API names them (`--ap-color-*`, `--ap-<typography>`, `--ap-layout-*`). */
export function variablesOf(def: ThemeDefinition): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(def.colors ?? {})) vars[`--ap-color-${kebab(k)}`] = v;
  for (const [k, v] of Object.entries(def.typography ?? {})) vars[`--ap-${kebab(k)}`] = v;
  for (const [k, v] of Object.entries(def.layout ?? {})) vars[`--ap-layout-${kebab(k)}`] = v;
  for (const [k, v] of Object.entries(def.custom ?? {})) vars[`--ap-custom-${kebab(k)}`] = v;
  return vars;
}

/** What the widget would receive for this theme and branding (the API merges them the same way). */
export function widgetDraft(name: string, themeId: string | null, themeVariables: Record<string, string>, branding: BrandingInput): WidgetDraft {
  const variables = { ...themeVariables };
  if (branding.typography?.bodyFont) variables['--ap-font-family'] = branding.typography.bodyFont;
  if (branding.typography?.headingFont) variables['--ap-heading-font-family'] = branding.typography.headingFont;
  if (branding.widget?.borderRadius) variables['--ap-layout-border-radius'] = branding.widget.borderRadius;
  const colors = Object.fromEntries(Object.entries(branding.colors ?? {}).filter(([, v]) => !!v));
  return {
    name,
    theme: { themeId, colors, variables },
    branding: {
      position: branding.widget?.position ?? null,
      welcomeMessage: branding.widget?.welcomeMessage || null,
      placeholder: branding.widget?.placeholder || null,
      customCss: branding.customCss ?? '',
      showAttribution: branding.showAttribution !== false,
    },
  };
}

export function useThemes() {
  return useQuery({ queryKey: ['themes'], queryFn: () => data(api.GET('/api/themes', { params: { query: { page: '1', limit: '100' } } })) });
}

export function useApplication(id: string) {
  return useQuery({ queryKey: ['applications', 'one', id], queryFn: () => data(api.GET('/api/applications/{id}', { params: { path: { id } } })) });
}

export function useBranding(appId: string) {
  return useQuery({ queryKey: ['branding', appId], queryFn: () => data(api.GET('/api/branding/{appId}', { params: { path: { appId } } })) });
}

/** The caller's plan: whether the attribution line may be hidden (paid plans). */
export function usePlan() {
  return useQuery({ queryKey: ['billing', 'usage'], queryFn: () => data(api.GET('/api/billing/usage')), staleTime: 60_000 });
}

function useInvalidateApplication(appId: string) {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: ['applications'] }), client.invalidateQueries({ queryKey: ['branding', appId] })]);
}

export function useSelectTheme(appId: string) {
  const done = useInvalidateApplication(appId);
  return useMutation({
    mutationFn: (themeId: string) => data(api.POST('/api/applications/{id}/theme', { params: { path: { id: appId } }, body: { themeId } })),
    onSuccess: done,
  });
}

export function useCreateTheme() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description?: string; extend?: string; colors: Record<string, string>; typography: Record<string, string>; layout: Record<string, string> }) =>
      data(api.POST('/api/themes', { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['themes'] }),
  });
}

export function useSaveBranding(appId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BrandingInput) => data(api.PUT('/api/branding/{appId}', { params: { path: { appId } }, body })),
    onSuccess: (saved) => client.setQueryData(['branding', appId], saved),
  });
}

export function useHostedPage(appId: string) {
  const done = useInvalidateApplication(appId);
  return useMutation({
    mutationFn: (enabled: boolean) => data(api.PUT('/api/applications/{id}', { params: { path: { id: appId } }, body: { hostedPage: { enabled } } })),
    onSuccess: done,
  });
}

/** The caller's role in the team that holds an application (none for one's own). */
export function useTeam(teamId: string | null | undefined) {
  return useQuery({
    queryKey: ['teams', 'one', teamId],
    enabled: !!teamId,
    queryFn: () => data(api.GET('/api/teams/{id}', { params: { path: { id: teamId! } } })),
  });
}

/** Themes, branding and the hosted page need the Admin role or above in a team (the API answers 403 otherwise). */
export const MANAGING_ROLES: readonly string[] = ['owner', 'admin'];
