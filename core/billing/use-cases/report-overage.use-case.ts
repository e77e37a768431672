import type { Clock } from '../../shared/clock.port';
import type { BillingAccountRepository, OverageDue } from '../ports/billing-account-repository.port';
import type { PaymentGateway } from '../ports/payment-gateway.port';

/** Periods reported per round; a run goes on until none is left. */
const BATCH = 200;

export interface OverageReport {
  reported: number;
  tokens: number;
  failed: number;
}

/**
 * The overage job (SPEC 8): tokens past the included ones (on Starter and Pro, the only plans whose
 * active subscriptions run past them; own-key tokens are never counted as overage) are reported to the
 * processor as metered usage, one report per user and period with everything since the last run, never
 * from the chat path.
 *
 * Idempotent per period and user: a report's identifier is the user, the period and the running total it
 * brings the period to, so the processor counts a report repeated after a crash (or by a second instance
 * running the job at the same moment) once; and the reported total moves only from the value the report
 * was computed from.
 */
export class ReportOverageUseCase {
  constructor(private readonly deps: { gateway: PaymentGateway; accounts: BillingAccountRepository; clock: Clock }) {}

  async execute(): Promise<OverageReport> {
    const result: OverageReport = { reported: 0, tokens: 0, failed: 0 };
    const failedKeys = new Set<string>();
    for (;;) {
      const due = (await this.deps.accounts.overageDue(BATCH)).filter((d) => !failedKeys.has(keyOf(d)));
      if (due.length === 0) return result;
      for (const d of due) {
        try {
          if (await this.report(d)) {
            result.reported++;
            result.tokens += d.overageTokens - d.reportedTokens;
          }
        } catch {
          // Reported at the next run; the same identifier keeps a report that did reach the processor counted once.
          failedKeys.add(keyOf(d));
          result.failed++;
        }
      }
    }
  }

  private async report(d: OverageDue): Promise<boolean> {
    const tokens = d.overageTokens - d.reportedTokens;
    const now = this.deps.clock.now();
    // Usage belongs to its period: a late run reports it at the period's last second.
    const at = now.getTime() < d.periodEnd.getTime() ? now : new Date(d.periodEnd.getTime() - 1000);
    await this.deps.gateway.reportOverage({ customerId: d.customerId, tokens, identifier: `ovg_${d.userId}_${Math.floor(d.periodStart.getTime() / 1000)}_${d.overageTokens}`, at });
    return this.deps.accounts.markReported(d.userId, d.periodStart, d.reportedTokens, d.overageTokens);
  }
}

const keyOf = (d: OverageDue) => `${d.userId}|${d.periodStart.getTime()}`;
