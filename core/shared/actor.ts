/** Platform roles (SPEC 5.3), most privileged first. */
export const PLATFORM_ROLES = ['admin', 'developer', 'user'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

/** Who is calling: set by the HTTP layer from a verified token, read by use cases for ownership. */
export interface Actor {
  userId: string;
  role: PlatformRole;
}
