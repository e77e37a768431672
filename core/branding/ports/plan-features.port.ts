/** Features that depend on the owner's plan. */
export interface PlanFeatures {
  /** Paid plans (Starter and up, while active) may hide the platform attribution line. */
  mayHideAttribution(ownerId: string): Promise<boolean>;
}
