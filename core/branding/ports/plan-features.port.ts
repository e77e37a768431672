/** Features that depend on the owner's plan. */
export interface PlanFeatures {
  /** Paid plans (Starter and up, while active) may hide the platform attribution line. */
  mayHideAttribution(ownerId: string): Promise<boolean>;
  /** Why the owner's plan may not hide it, and the one thing that lifts that, true on this install. */
  attributionRefusal(ownerId: string): Promise<string>;
}
