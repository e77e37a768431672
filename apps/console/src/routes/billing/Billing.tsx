import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDate, formatNumber } from '../../lib/format';
import { usePlans, usePortal, useSubscribe, useSubscription, useUsage, useInvoices, type Invoice, type PaidPlan, type Plan, type Usage } from './queries';
import { s } from './strings';

const usd = (n: number) => n.toLocaleString('en', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: n > 0 && n < 0.01 ? 4 : 2 });
const money = (cents: number, currency: string) => (cents / 100).toLocaleString('en', { style: 'currency', currency: currency.toUpperCase() });
/** Only web addresses become links (what Stripe answers); anything else stays text. */
const webUrl = (url: string | null | undefined) => (url && /^https?:\/\//i.test(url) ? url : null);
const invoiceName = (inv: Invoice) => inv.number ?? inv.id ?? '';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="ap-facts__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Current({ usage, plans }: { usage: Usage; plans: Plan[] }) {
  const payments = usage.payments === true;
  const plan = plans.find((p) => p.id === usage.plan);
  const included = usage.limits?.includedTokens ?? null;
  const u = usage.usage ?? {};
  const used = u.tokensUsed ?? 0;
  const limit = (value: number | undefined, max: number | null | undefined) => s.ofLimit(formatNumber(value ?? 0), max == null ? s.unlimited : formatNumber(max));
  return (
    <section className="ap-card ap-stack" aria-labelledby="billing-current">
      <h2 id="billing-current">{s.current}</h2>
      <p className="bl-plan">
        <strong>{plan?.name ?? usage.plan}</strong> <span className={`bl-status bl-status--${usage.status}`}>{s.status[usage.status ?? ''] ?? usage.status}</span>
      </p>
      {usage.effectivePlan && usage.effectivePlan !== usage.plan ? <p className="ap-notice">{s.effectiveNote(usage.effectivePlan)}</p> : null}
      <dl className="ap-facts">
        {usage.period?.start && usage.period.end ? <Row label={s.period}>{s.periodRange(formatDate(usage.period.start), formatDate(usage.period.end))}</Row> : null}
        <Row label={s.included}>{included == null ? s.unlimited : formatNumber(included)}</Row>
        <Row label={s.used}>{formatNumber(used)}</Row>
        {u.tokensReserved ? <Row label={s.reserved}>{formatNumber(u.tokensReserved)}</Row> : null}
        <Row label={s.remaining}>{u.tokensRemaining == null ? s.unlimited : formatNumber(u.tokensRemaining)}</Row>
        {payments ? <Row label={s.overage}>{s.overageValue(formatNumber(u.overageTokens ?? 0), usd(u.overageCostUsd ?? 0))}</Row> : null}
        <Row label={s.ownKeys}>{formatNumber(u.ownKeyTokens ?? 0)}</Row>
        <Row label={s.limits.messages}>{limit(u.messages, usage.limits?.messagesPerMonth)}</Row>
        <Row label={s.limits.applications}>{limit(u.applications, usage.limits?.applications)}</Row>
        <Row label={s.limits.apiKeys}>{limit(u.apiKeys, usage.limits?.apiKeys)}</Row>
      </dl>
      {included ? <progress className="bl-meter" aria-label={s.usageBar} max={included} value={Math.min(used, included)} /> : null}
      {usage.exempt ? <p className="ap-muted">{s.exempt}</p> : null}
      {!payments ? <p className="ap-muted">{s.noPayments}</p> : usage.exempt ? null : <p className="ap-muted">{usage.overageAllowed ? s.overageAllowed : s.overageHard}</p>}
    </section>
  );
}

function Plans({ plans, usage, paying }: { plans: Plan[]; usage: Usage; paying: boolean }) {
  const subscribe = useSubscribe();
  const portal = usePortal();
  return (
    <section className="ap-stack" aria-labelledby="billing-plans">
      <h2 id="billing-plans">{s.plansTitle}</h2>
      <ul className="bl-plans">
        {plans.map((p) => {
          const current = p.id === usage.plan && usage.status !== 'canceled';
          return (
            <li key={p.id} className={`ap-card bl-plan-card${current ? ' bl-plan-card--current' : ''}`}>
              <h3>{p.name}</h3>
              <p className="bl-price">{s.perMonth(usd(p.priceUsdPerMonth ?? 0))}</p>
              <ul className="bl-features">
                <li>{p.limits?.includedTokens == null ? `${s.unlimited} tokens` : s.includedTokens(formatNumber(p.limits.includedTokens))}</li>
                <li>{p.platformKeys ? s.platformKeys : s.ownKeysOnly}</li>
                <li>{p.overageUsdPer1k == null ? s.noOverage : s.overagePrice(usd(p.overageUsdPer1k))}</li>
              </ul>
              {current ? (
                <p className="ap-strong">{s.currentPlan}</p>
              ) : p.id === 'free' ? null : paying ? (
                <p className="ap-muted">{s.manageInPortal}</p>
              ) : (
                <Button variant="primary" busy={subscribe.isPending && subscribe.variables === p.id} onClick={() => subscribe.mutate(p.id as PaidPlan)}>
                  {s.subscribe(p.name ?? '')}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <ErrorText error={subscribe.error} />
      <div className="ap-stack">
        <div className="ap-actions bl-portal">
          <Button disabled={!paying} busy={portal.isPending} onClick={() => portal.mutate()} aria-describedby="bl-portal-hint">
            {s.portal}
          </Button>
        </div>
        <p id="bl-portal-hint" className="ap-field__hint">
          {paying ? s.portalHint : s.portalDisabled}
        </p>
        <ErrorText error={portal.error} />
      </div>
    </section>
  );
}

function Invoices() {
  const [cursors, setCursors] = useState<string[]>([]);
  const invoices = useInvoices(cursors.at(-1));
  let body;
  if (invoices.isPending) body = <Loading />;
  else if (invoices.isError) body = <ErrorState error={invoices.error} onRetry={() => void invoices.refetch()} />;
  else if (!invoices.data.items?.length && !cursors.length) body = <EmptyState title={s.noInvoices}>{s.noInvoicesBody}</EmptyState>;
  else {
    const page = invoices.data;
    body = (
      <>
        <DataTable
          rows={page.items!}
          rowKey={(inv) => inv.id!}
          columns={[
            { header: s.invoiceColumns.number, rowHeader: true, cell: invoiceName },
            { header: s.invoiceColumns.date, cell: (inv) => (inv.createdAt ? formatDate(inv.createdAt) : '') },
            { header: s.invoiceColumns.period, cell: (inv) => (inv.periodStart && inv.periodEnd ? s.periodRange(formatDate(inv.periodStart), formatDate(inv.periodEnd)) : '') },
            { header: s.invoiceColumns.status, cell: (inv) => inv.status },
            { header: s.invoiceColumns.due, className: 'ap-num', cell: (inv) => money(inv.amountDueCents ?? 0, inv.currency ?? 'usd') },
            { header: s.invoiceColumns.paid, className: 'ap-num', cell: (inv) => money(inv.amountPaidCents ?? 0, inv.currency ?? 'usd') },
            {
              header: s.invoiceColumns.links,
              className: 'ap-row-actions',
              cell: (inv) => {
                const hosted = webUrl(inv.hostedInvoiceUrl);
                const pdf = webUrl(inv.pdfUrl);
                return (
                  <>
                    {hosted ? (
                      <a href={hosted} target="_blank" rel="noopener noreferrer" aria-label={s.viewInvoice(invoiceName(inv))}>
                        {s.view}
                      </a>
                    ) : null}{' '}
                    {pdf ? (
                      <a href={pdf} target="_blank" rel="noopener noreferrer" aria-label={s.downloadPdf(invoiceName(inv))}>
                        {s.pdf}
                      </a>
                    ) : null}
                  </>
                );
              },
            },
          ]}
        />
        <div className="ap-actions">
          <Button disabled={!cursors.length} onClick={() => setCursors([])}>
            {s.newer}
          </Button>
          <Button disabled={!page.hasMore || !page.nextCursor} onClick={() => setCursors([...cursors, page.nextCursor!])}>
            {s.older}
          </Button>
        </div>
      </>
    );
  }
  return (
    <section className="ap-card ap-stack" aria-labelledby="billing-invoices">
      <h2 id="billing-invoices">{s.invoicesTitle}</h2>
      {body}
    </section>
  );
}

/**
 * Billing: the plan and its usage, the plans on offer (Checkout for a first paid plan, the customer portal
 * for those who pay), and the invoices. Back from Checkout (`?checkout=success`) the usage is polled until
 * Stripe's webhook has moved the plan.
 */
export default function Billing() {
  const [params] = useSearchParams();
  const checkout = params.get('checkout');
  // Back from Checkout: both are polled until Stripe's webhook has made the subscription.
  const [confirmed, setConfirmed] = useState(false);
  const waiting = checkout === 'success' && !confirmed;
  const subscription = useSubscription(waiting ? 1500 : false);
  const plans = usePlans();
  const usage = useUsage(waiting ? 1500 : false);
  const paying = !!subscription.data?.billing?.subscription;
  if (waiting && paying) setConfirmed(true);

  let body;
  if (usage.isPending || plans.isPending || subscription.isPending) body = <Loading />;
  else if (usage.isError || plans.isError || subscription.isError) {
    const failed = usage.error ?? plans.error ?? subscription.error;
    body = (
      <ErrorState
        error={failed}
        onRetry={() => {
          void usage.refetch();
          void plans.refetch();
          void subscription.refetch();
        }}
      />
    );
  } else
    body = (
      <div className="ap-stack">
        <Current usage={usage.data} plans={plans.data} />
        {/* Without payments there is nothing to buy or pay: no prices, Subscribe buttons or invoices (STUDIO.md). */}
        {usage.data.payments ? (
          <>
            <Plans plans={plans.data} usage={usage.data} paying={paying} />
            <Invoices />
          </>
        ) : null}
      </div>
    );

  return (
    <>
      <PageHeader title={s.title} description={usage.data?.payments ? s.description : s.descriptionNoPayments} />
      {checkout === 'success' ? (
        <p className="ap-notice" role="status">
          {paying ? s.checkoutConfirmed : s.checkoutSuccess}
        </p>
      ) : checkout === 'canceled' ? (
        <p className="ap-notice" role="status">
          {s.checkoutCanceled}
        </p>
      ) : null}
      {body}
    </>
  );
}
