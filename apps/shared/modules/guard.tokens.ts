import { token } from '../tokens';
import type { OwnerLimit } from '../../../core/shared/owner-limit';

/**
 * Optional plan-limit guards, bound by the billing area when it is present. Each is a
 * `(ownerId: string) => Promise<OwnerLimit | null>`: how many the owner's plan allows (null: no limit),
 * enforced by the repository in the same step as the insert; past it, the creation gets a 402.
 */
export const GUARD_TOKENS = {
  ApplicationQuotaGuard: token<OwnerQuotaGuard>('ApplicationQuotaGuard'),
  ApiKeyQuotaGuard: token<OwnerQuotaGuard>('ApiKeyQuotaGuard'),
} as const;

/** `callerId`: who asks, when it may not be the owner (a team's Admin): the refusal then says whose plan is full. */
export type OwnerQuotaGuard = (ownerId: string, callerId?: string) => Promise<OwnerLimit | null>;
