import type { Actor } from '../../shared/actor';

/** One request to the marketplace's API (its SPEC 4.9 paths, without the `/api/marketplace` prefix). */
export interface CatalogRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `/browse`, `/plugins/<id>/reviews`, …: always starting with `/`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** The signed-in user the marketplace acts for (reviews, submissions, admin moves); absent on public reads. */
  actor?: Actor;
}

/** The marketplace's answer as it gave it: its status and JSON body (errors in the one error body). */
export interface CatalogResponse {
  status: number;
  body: unknown;
}

/** A published version of a marketplace plugin (SPEC 2.9). */
export interface CatalogVersion {
  pluginId: string;
  version: string;
  changelog: string;
  compatibility: { minPlatformVersion?: string | null; maxPlatformVersion?: string | null } | null;
  downloadUrl: string;
  fileSize: number;
  checksum: string;
}

/** What the core needs to know about a marketplace plugin to install it (SPEC 2.6 plus `isPaid`). */
export interface CatalogPlugin {
  id: string;
  name: string;
  version: string;
  isPaid: boolean;
}

/** A license check's answer: `valid` false says why (no license, revoked, expired). */
export interface LicenseCheck {
  valid: boolean;
  reason?: string;
}

/**
 * The marketplace catalog (ARCHITECTURE.md "one port, several adapters"): over HTTP to MARKETPLACE_URL
 * with the service token and the acting user, or a null catalog when no marketplace is configured.
 * A marketplace that cannot be reached (refused, timed out) is an `UnavailableError` (503).
 */
export interface MarketplaceCatalog {
  /** False for the null catalog: browse answers empty, paid validation is skipped. */
  readonly configured: boolean;
  /** Forwards one API request and answers the marketplace's status and body. */
  forward(request: CatalogRequest): Promise<CatalogResponse>;
  /** A published plugin, or null when the marketplace has none with that id. */
  plugin(id: string): Promise<CatalogPlugin | null>;
  /** The plugin's published versions (any order). */
  versions(id: string): Promise<CatalogVersion[]>;
  /** Whether `userId` holds a valid license for the paid plugin `pluginId`. */
  validateLicense(pluginId: string, userId: string): Promise<LicenseCheck>;
}
