import type { StudioConfig } from '../domain/studio-config';

export interface StudioDraft {
  applicationId: string;
  config: StudioConfig;
  /** The published version the draft was last restored from or published as, if any. */
  basedOnVersion: number | null;
  updatedBy: string | null;
  updatedAt: Date;
}

/** A published version: numbered per application from 1, immutable once stored. */
export interface StudioVersion {
  id: string;
  applicationId: string;
  number: number;
  note: string;
  config: StudioConfig;
  publishedBy: { id: string; email: string } | null;
  publishedAt: Date;
}

export const MAX_VERSIONS_PER_APPLICATION = 1_000;

/** Drafts and published versions of applications' studio configurations (docs/studio.md). */
export interface StudioRepository {
  findDraft(applicationId: string): Promise<StudioDraft | null>;
  saveDraft(draft: { applicationId: string; config: StudioConfig; basedOnVersion: number | null; updatedBy: string }): Promise<StudioDraft>;
  /**
   * Stores the next version of the application (its number one more than the last, assigned atomically, so
   * two publishes at once get two numbers) and makes the draft that version's. ConflictError past the limit.
   */
  publish(version: { applicationId: string; note: string; config: StudioConfig; publishedBy: string }): Promise<StudioVersion>;
  listVersions(applicationId: string, offset: number, limit: number): Promise<{ data: StudioVersion[]; total: number }>;
  findVersion(applicationId: string, number: number): Promise<StudioVersion | null>;
  latestVersion(applicationId: string): Promise<StudioVersion | null>;
}
