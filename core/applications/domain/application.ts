import { DEFAULT_SEARCH_MODE, type SearchMode } from '../../knowledge/domain/hybrid-ranking';
import type { ThemeOverrides } from '../../themes/domain/theme';

/** Partial theme overrides merged over the selected theme (SPEC 4.2; every section of EXTENSIONS.md "Themes"). */
export type ThemeCustomization = ThemeOverrides;

export interface Application {
  id: string;
  /** The user whose plan and quota apply: the creator, or the Owner of the team that holds it. */
  ownerId: string;
  /** The team that holds the application; null (or absent) for a personal one. */
  teamId?: string | null;
  name: string;
  description: string;
  /** Unique across the platform; addresses the app in `/api/v1/app/:slug`. */
  slug: string;
  themeId: string | null;
  themeCustomization: ThemeCustomization;
  /** Origins (scheme://host[:port]) allowed to embed the widget and call the public API from a browser. */
  allowedOrigins: string[];
  /** Whether the hosted chat page (`GET /chat/:slug`) is served; off by default. */
  hostedPageEnabled: boolean;
  /** How its knowledge base is searched for chats and by default on the search endpoint (absent: hybrid). */
  retrievalMode?: SearchMode;
  createdAt: Date;
  updatedAt: Date;
}

export interface ApplicationView {
  id: string;
  teamId: string | null;
  name: string;
  description: string;
  slug: string;
  theme: { themeId: string | null; customization: ThemeCustomization };
  allowedOrigins: string[];
  hostedPage: { enabled: boolean };
  retrieval: { mode: SearchMode };
  createdAt: string;
  updatedAt: string;
}

export const toApplicationView = (app: Application): ApplicationView => ({
  id: app.id,
  teamId: app.teamId ?? null,
  name: app.name,
  description: app.description,
  slug: app.slug,
  theme: { themeId: app.themeId, customization: app.themeCustomization },
  allowedOrigins: app.allowedOrigins,
  hostedPage: { enabled: app.hostedPageEnabled },
  retrieval: { mode: app.retrievalMode ?? DEFAULT_SEARCH_MODE },
  createdAt: app.createdAt.toISOString(),
  updatedAt: app.updatedAt.toISOString(),
});

/** `My Support Bot!` -> `my-support-bot`; never empty. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
  return slug.length >= 3 ? slug : `app-${slug || 'new'}`;
}

export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,58}[a-z0-9])$/;
