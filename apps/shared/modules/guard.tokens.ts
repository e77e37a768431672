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

export type OwnerQuotaGuard = (ownerId: string) => Promise<OwnerLimit | null>;
