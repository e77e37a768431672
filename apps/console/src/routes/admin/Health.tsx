import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { ErrorState, Loading } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { useSystemHealth } from './queries';
import { s } from './strings';

/** A component's details as text: `key: value` pairs (values as JSON), never markup. */
const detailText = (details: Record<string, unknown> | undefined, error: string | undefined) =>
  [error, ...Object.entries(details ?? {}).map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)].filter(Boolean).join(' · ');

/** The platform's status and each component's status and latency, refreshed every 15 s. */
export default function Health() {
  const health = useSystemHealth();
  if (health.isPending) return <Loading />;
  if (health.isError) return <ErrorState error={health.error} onRetry={() => void health.refetch()} />;
  const h = health.data;
  const components = Object.entries(h.components ?? {});
  return (
    <div className="ap-stack">
      <p className="ap-muted">{s.healthDescription}</p>
      <div className="adm-overall">
        <span>{s.overall}</span>
        <strong className={`adm-status adm-status--${h.status}`} role="status">
          {s.statuses[h.status ?? ''] ?? h.status}
        </strong>
        <span className="ap-muted">{h.timestamp ? s.checkedAt(formatDateTime(h.timestamp)) : ''}</span>
        <Button busy={health.isFetching} onClick={() => void health.refetch()}>
          {s.refresh}
        </Button>
      </div>
      <DataTable
        aria-label={s.health}
        rows={components}
        rowKey={([name]) => name}
        columns={[
          { header: s.componentColumns.component, rowHeader: true, cell: ([name]) => s.componentNames[name] ?? name },
          { header: s.componentColumns.status, cell: ([, c]) => <span className={`adm-status adm-status--${c.status}`}>{s.statuses[c.status ?? ''] ?? c.status}</span> },
          { header: s.componentColumns.critical, cell: ([, c]) => (c.critical ? s.yes : s.no) },
          { header: s.componentColumns.latency, className: 'ap-num', cell: ([, c]) => (typeof c.latencyMs === 'number' ? s.ms(c.latencyMs) : '') },
          { header: s.componentColumns.detail, className: 'adm-detail', cell: ([, c]) => detailText(c.details as Record<string, unknown> | undefined, c.error) },
        ]}
      />
    </div>
  );
}
