/** Claims one run of a periodic job per period across every instance: the first claimant wins. */
export interface RunClaims {
  claim(job: string, period: string): Promise<boolean>;
}
