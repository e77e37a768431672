import type { KnowledgeBase } from '../domain/knowledge-base';

export interface NewKnowledgeBase {
  teamId: string | null;
  name: string;
  description: string;
  createdBy: string;
}

/**
 * Knowledge bases and the bases each application uses. Ownership is answered with every base (an
 * application's own base answers its application's owner and team), for the access policy to decide.
 */
export interface KnowledgeBaseRepository {
  /**
   * Creates a base for `createdBy` (personal) or for a team, whose Owner then owns it; null when the
   * team has no Owner (it does not exist).
   */
  create(base: NewKnowledgeBase): Promise<KnowledgeBase | null>;
  findById(id: string): Promise<KnowledgeBase | null>;
  /** Bases of their own (no application's) the user owns personally or whose team they are a member of; newest first. */
  listVisible(userId: string, filter: { teamId?: string }, offset: number, limit: number): Promise<{ items: KnowledgeBase[]; total: number }>;
  countOwned(holder: { ownerId: string } | { teamId: string }): Promise<number>;
  documentCount(id: string): Promise<number>;
  /** The document counts of several bases in one query (a base without documents is absent). */
  documentCounts(ids: string[]): Promise<Map<string, number>>;
  update(id: string, changes: { name?: string; description?: string }): Promise<KnowledgeBase | null>;
  delete(id: string): Promise<boolean>;
  /** The other bases the application uses (its own is always used), in the order they were added. */
  usedBy(applicationId: string): Promise<KnowledgeBase[]>;
  /** Replaces the other bases the application uses. */
  setUsedBy(applicationId: string, baseIds: string[]): Promise<void>;
}
