import { useState, type ReactNode } from 'react';
import { useApplicationContext } from '../../components/ApplicationScope';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { formatDate, formatNumber } from '../../lib/format';
import { BarChart, type Bar } from './BarChart';
import { useCosts, useOverview, type Costs, type Overview } from './queries';
import { s } from './strings';

const usd = (n: number) => `$${n.toLocaleString('en', { minimumFractionDigits: 2, maximumFractionDigits: n > 0 && n < 0.01 ? 6 : 2 })}`;
const percent = (n: number) => `${(n * 100).toLocaleString('en', { maximumFractionDigits: 1 })}%`;
const day = (iso?: string) => (iso ? formatDate(`${iso}T00:00:00Z`) : '');
const providerName = (id?: string) => s.providers[id ?? ''] ?? id ?? '';
const sourceName = (id?: string) => s.sources[id ?? ''] ?? id ?? '';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="ap-card ap-stack" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A chart and the table of the figures behind it. */
function ChartWithTable({ title, bars, series, format, head, rows }: { title: string; bars: Bar[]; series: string[]; format: (n: number) => string; head: string[]; rows: ReactNode[][] }) {
  return (
    <>
      <BarChart title={title} bars={bars} series={series} format={format} />
      <DataTable
        caption={title}
        rows={rows}
        rowKey={(_, r) => r}
        columns={head.map((h, i) => ({ header: h, rowHeader: i === 0, className: i > 0 ? 'ap-num' : undefined, headerClassName: i > 0 ? 'ap-num' : undefined, cell: (row: ReactNode[]) => row[i] }))}
      />
    </>
  );
}

function OverviewFigures({ overview }: { overview: Overview }) {
  const t = overview.totals ?? {};
  const figures: [string, string][] = [
    [s.figures.conversations, formatNumber(t.conversations ?? 0)],
    [s.figures.messages, formatNumber(t.messages ?? 0)],
    [s.figures.totalTokens, formatNumber(t.totalTokens ?? 0)],
    [s.figures.estimatedCostUsd, usd(t.estimatedCostUsd ?? 0)],
    [s.figures.errorRate, percent(t.errorRate ?? 0)],
    [s.figures.apiCalls, formatNumber(t.apiCalls ?? 0)],
    [s.figures.widgetLoads, formatNumber(t.widgetLoads ?? 0)],
  ];
  return (
    <dl className="ap-figures">
      {figures.map(([label, value]) => (
        <div key={label} className="ap-figure">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Usage({ overview }: { overview: Overview }) {
  const byDay = (overview.byDay ?? []).filter((d) => (d.messages ?? 0) > 0 || (d.conversations ?? 0) > 0);
  const byProvider = overview.byProvider ?? [];
  const bySource = overview.bySource ?? [];
  return (
    <>
      <Section id="analytics-by-day" title={s.byDay}>
        <ChartWithTable
          title={s.byDay}
          series={[s.columns.messages]}
          format={formatNumber}
          bars={byDay.map((d) => ({ label: day(d.day), values: [d.messages ?? 0] }))}
          head={[s.columns.day, s.figures.conversations, s.columns.messages, s.columns.tokens, s.columns.cost]}
          rows={byDay.map((d) => [day(d.day), formatNumber(d.conversations ?? 0), formatNumber(d.messages ?? 0), formatNumber(d.totalTokens ?? 0), usd(d.estimatedCostUsd ?? 0)])}
        />
      </Section>
      <Section id="analytics-by-provider" title={s.byProvider}>
        <ChartWithTable
          title={s.byProvider}
          series={[s.columns.tokens]}
          format={formatNumber}
          bars={byProvider.map((p) => ({ label: providerName(p.provider), values: [p.totalTokens ?? 0] }))}
          head={[s.columns.provider, s.columns.messages, s.columns.tokens, s.figures.errorRate, s.columns.cost]}
          rows={byProvider.map((p) => [providerName(p.provider), formatNumber(p.messages ?? 0), formatNumber(p.totalTokens ?? 0), percent(p.errorRate ?? 0), usd(p.estimatedCostUsd ?? 0)])}
        />
      </Section>
      <Section id="analytics-by-source" title={s.bySource}>
        <ChartWithTable
          title={s.bySource}
          series={[s.columns.messages]}
          format={formatNumber}
          bars={bySource.map((p) => ({ label: sourceName(p.source), values: [p.messages ?? 0] }))}
          head={[s.columns.source, s.figures.conversations, s.columns.messages, s.columns.tokens]}
          rows={bySource.map((p) => [sourceName(p.source), formatNumber(p.conversations ?? 0), formatNumber(p.messages ?? 0), formatNumber(p.totalTokens ?? 0)])}
        />
      </Section>
    </>
  );
}

function CostsSection({ costs }: { costs: Costs }) {
  const t = costs.totals ?? {};
  const byDay = (costs.byDay ?? []).filter((d) => (d.estimatedCostUsd ?? 0) > 0);
  const keyName = (k?: string) => (k === 'own' ? s.ownKeys : k === 'platform' ? s.platformKeys : s.noKey);
  return (
    <Section id="analytics-costs" title={s.costs}>
      <dl className="ap-figures">
        <div className="ap-figure">
          <dt>{s.figures.estimatedCostUsd}</dt>
          <dd>{usd(t.estimatedCostUsd ?? 0)}</dd>
        </div>
        <div className="ap-figure">
          <dt>{s.ownKeys}</dt>
          <dd>{usd(t.ownKeyCostUsd ?? 0)}</dd>
        </div>
        <div className="ap-figure">
          <dt>{s.platformKeys}</dt>
          <dd>{usd(t.platformKeyCostUsd ?? 0)}</dd>
        </div>
      </dl>
      {costs.pricesAsOf ? <p className="ap-muted">{s.pricesAsOf(day(costs.pricesAsOf))}</p> : null}
      {t.unpricedTokens ? <p className="ap-muted">{s.unpriced(formatNumber(t.unpricedTokens))}</p> : null}
      <h3>{s.costsByDay}</h3>
      <ChartWithTable
        title={s.costsByDay}
        series={[s.ownKeys, s.platformKeys]}
        format={usd}
        bars={byDay.map((d) => ({ label: day(d.day), values: [d.ownKeyCostUsd ?? 0, d.platformKeyCostUsd ?? 0] }))}
        head={[s.columns.day, s.ownKeys, s.platformKeys, s.columns.cost]}
        rows={byDay.map((d) => [day(d.day), usd(d.ownKeyCostUsd ?? 0), usd(d.platformKeyCostUsd ?? 0), usd(d.estimatedCostUsd ?? 0)])}
      />
      <h3>{s.costsByModel}</h3>
      <DataTable
        caption={s.costsByModel}
        rows={costs.byModel ?? []}
        rowKey={(_, i) => i}
        columns={[
          { header: s.columns.model, rowHeader: true, cell: (m) => m.model },
          { header: s.columns.provider, cell: (m) => providerName(m.provider) },
          { header: s.columns.key, cell: (m) => keyName(m.keyKind) },
          { header: s.columns.prompt, className: 'ap-num', headerClassName: 'ap-num', cell: (m) => formatNumber(m.promptTokens ?? 0) },
          { header: s.columns.completion, className: 'ap-num', headerClassName: 'ap-num', cell: (m) => formatNumber(m.completionTokens ?? 0) },
          { header: s.columns.cost, className: 'ap-num', headerClassName: 'ap-num', cell: (m) => usd(m.estimatedCostUsd ?? 0) },
        ]}
      />
    </Section>
  );
}

export default function Analytics() {
  const [days, setDays] = useState(30);
  // Inside an application's page: that application's figures; on the workspace page, all of them.
  const applicationId = useApplicationContext()?.id;
  const overview = useOverview(days, applicationId);
  const costs = useCosts(days, applicationId);
  const periodControl = (
    <label className="ap-field ap-field--inline">
      <span>{s.periodLabel}</span>
      <select value={days} onChange={(event) => setDays(Number(event.target.value))}>
        {[7, 30, 90].map((n) => (
          <option key={n} value={n}>
            {s.periods[n]}
          </option>
        ))}
      </select>
    </label>
  );

  let body: ReactNode;
  if (overview.isPending || costs.isPending) body = <Loading />;
  else if (overview.isError) body = <ErrorState error={overview.error} onRetry={() => void overview.refetch()} />;
  else if (costs.isError) body = <ErrorState error={costs.error} onRetry={() => void costs.refetch()} />;
  else if (!(overview.data.totals?.messages ?? 0) && !(overview.data.totals?.conversations ?? 0) && !(overview.data.totals?.apiCalls ?? 0))
    body = <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else
    body = (
      <>
        <Section id="analytics-overview" title={s.overview}>
          <OverviewFigures overview={overview.data} />
        </Section>
        <Usage overview={overview.data} />
        <CostsSection costs={costs.data} />
      </>
    );

  return (
    <>
      <PageHeader title={s.title} description={s.description} actions={periodControl} />
      <div className="ap-stack">{body}</div>
    </>
  );
}
