/** How many plan-limited resources a user owns right now. */
export interface OwnedResources {
  applications(ownerId: string): Promise<number>;
  /** API keys that still work (not revoked). */
  apiKeys(ownerId: string): Promise<number>;
}
