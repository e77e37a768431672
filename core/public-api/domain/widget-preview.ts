/** Every preview session token starts with this, so the public API tells it from an API key without a lookup. */
export const PREVIEW_TOKEN_PREFIX = 'wpv_';

/** How long a preview session lasts: long enough to try the widget, short enough that a copied token soon stops working. */
export const PREVIEW_TTL_SECONDS = 15 * 60;

/** The opaque origin a sandboxed frame's requests carry (`Origin: null`): the console's preview frame. */
export const SANDBOXED_ORIGIN = 'null';

/**
 * What a widget preview session is bound to: one application, one active API key of it (whose limit and
 * scope the session uses), the application's owner, and its end (seconds since the epoch).
 */
export interface PreviewClaims {
  applicationId: string;
  keyId: string;
  ownerId: string;
  expiresAt: number;
}

/** What `POST /api/applications/:id/widget-preview` answers. */
export interface WidgetPreviewSession {
  token: string;
  expiresAt: string;
  /** The application's name, the widget's title. */
  title: string;
  /** The key the session chats with: its name and last four characters (never the key). */
  key: { id: string; name: string; keyHint: string };
}

export const looksLikePreviewToken = (value: unknown): value is string =>
  typeof value === 'string' && value.startsWith(PREVIEW_TOKEN_PREFIX) && value.length < 1024;
