/** A user's customer at the payment processor and the state of their paid subscription. */
export interface BillingAccount {
  userId: string;
  customerId: string;
  subscriptionId: string | null;
  /** The processor's time of the last subscription event applied. */
  stateAt: Date | null;
}

/** Overage of one user and period not reported yet. */
export interface OverageDue {
  userId: string;
  customerId: string;
  periodStart: Date;
  periodEnd: Date;
  overageTokens: number;
  reportedTokens: number;
}

export interface BillingAccountRepository {
  findByUser(userId: string): Promise<BillingAccount | null>;
  findByCustomer(customerId: string): Promise<BillingAccount | null>;
  /** Stores the user's customer unless one is stored; answers the stored account either way (null: no such user). */
  attachCustomer(userId: string, customerId: string): Promise<BillingAccount | null>;
  /** Records a webhook event id: false when it was recorded before, i.e. the event was applied already. */
  recordEvent(eventId: string, type: string): Promise<boolean>;
  /**
   * Moves the account to the state of an event created at `at` (and its subscription id, when given):
   * false, changing nothing, when an event created later was applied already.
   */
  advance(userId: string, change: { at: Date; subscriptionId?: string | null }): Promise<boolean>;
  /** Periods whose overage passed what was reported, for users with a customer; oldest first. */
  overageDue(limit: number): Promise<OverageDue[]>;
  /** Records that the period's overage up to `to` tokens is reported, if `from` still is what was: false otherwise. */
  markReported(userId: string, periodStart: Date, from: number, to: number): Promise<boolean>;
}
