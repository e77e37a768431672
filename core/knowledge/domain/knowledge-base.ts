/**
 * A knowledge base: documents searched together, owned by a user or a team (docs/knowledge.md), used by
 * any number of applications. Every application also has its own base (`applicationId`, with the
 * application's id), whose owner and team are always the application's.
 */
export interface KnowledgeBase {
  id: string;
  /** The owner (a team's Owner for a team's base; the application's owner for an application's own base). */
  ownerId: string;
  /** The team holding it; null for a personal base. */
  teamId: string | null;
  /** Set on an application's own base only. */
  applicationId: string | null;
  name: string;
  description: string;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface KnowledgeBaseView {
  id: string;
  name: string;
  description: string;
  teamId: string | null;
  /** The application whose own base this is; null for a base of its own. */
  applicationId: string | null;
  documentCount: number;
  createdAt: string;
  updatedAt: string;
}

export const toBaseView = (b: KnowledgeBase, documentCount: number): KnowledgeBaseView => ({
  id: b.id,
  name: b.name,
  description: b.description,
  teamId: b.teamId,
  applicationId: b.applicationId,
  documentCount,
  createdAt: b.createdAt.toISOString(),
  updatedAt: b.updatedAt.toISOString(),
});

/** A base as an application's retrieval settings list it. */
export interface UsedBaseView {
  id: string;
  name: string;
  teamId: string | null;
}

export const MAX_BASE_NAME = 100;
export const MAX_BASE_DESCRIPTION = 1000;
/** Bases of its own one owner (a user or a team) keeps at most. */
export const MAX_BASES_PER_OWNER = 100;
/** Other bases one application uses at most, besides its own. */
export const MAX_BASES_PER_APPLICATION = 10;
