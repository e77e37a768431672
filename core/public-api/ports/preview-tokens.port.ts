import type { PreviewClaims } from '../domain/widget-preview';

/** Signs widget preview sessions (`wpv_…`) and reads them back; a token altered in any way verifies as null. */
export interface PreviewTokens {
  issue(claims: PreviewClaims): string;
  /** The claims of a token this platform signed, expired or not (the caller compares `expiresAt` with its clock). */
  verify(token: string): PreviewClaims | null;
}
