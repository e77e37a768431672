/**
 * Optional plan-limit guards, bound by the billing area when it is present. Each is a
 * `(ownerId: string) => Promise<void>` that throws (402/403) when the owner's plan allows no more.
 */
export const GUARD_TOKENS = {
  ApplicationQuotaGuard: Symbol.for('ApplicationQuotaGuard'),
  ApiKeyQuotaGuard: Symbol.for('ApiKeyQuotaGuard'),
} as const;

export type OwnerQuotaGuard = (ownerId: string) => Promise<void>;
