/**
 * The network rules of every call the platform makes to an address an owner gave (webhook deliveries,
 * http tools, MCP servers, workflow `http` steps): the scheme (https, or http where the operator allows
 * it), no credentials in the URL, and every address the host resolves to public or in a range the
 * operator allows. One implementation serves both the save of such an address and the call to it, so
 * nothing is saved that its call would refuse.
 */
export interface OutboundUrlRules {
  /**
   * Why a call to this URL would be refused, in words for a person, starting with `url` (see
   * `urlProblemOf`); null when it may be called.
   */
  problemWith(url: string): Promise<string | null>;
}

/** A problem of `OutboundUrlRules` about the field or thing named `subject` (`source.url`, `the URL`). */
export const urlProblemOf = (problem: string, subject: string): string => problem.replace(/^url\b/, subject);
