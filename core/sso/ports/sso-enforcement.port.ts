import { ForbiddenError } from '../../shared/errors';

/** Which team, if any, requires a user to sign in through its SSO connection. */
export interface SsoEnforcement {
  /** The slug of a team the user belongs to whose SSO connection is enabled and enforced, or null. */
  enforcingTeamOf(userId: string): Promise<string | null>;
}

/** The 403 of a password or OAuth login by a member of a team that enforces SSO. */
export const ssoRequiredError = (teamSlug: string): ForbiddenError =>
  new ForbiddenError(`Your team "${teamSlug}" requires single sign-on: choose to sign in with your team's SSO and enter "${teamSlug}"`);
