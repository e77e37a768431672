import { ArrowRight, MessagesSquare } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useApplicationContext } from '../../components/ApplicationScope';
import { PageHeader } from '../../components/PageHeader';
import { formatNumber } from '../../lib/format';
import { useOverviewFacts } from './queries';
import { s } from './strings';

const o = s.overview;

/** A figure that may still be loading or may have failed on its own. */
function fact(query: { isPending: boolean; isError: boolean }, value: () => ReactNode): ReactNode {
  if (query.isPending) return '…';
  if (query.isError) return o.unknown;
  return value();
}

/** An application's Overview: what it is, its state at a glance, and the way to each tab. */
export default function Overview({ applicationId }: { applicationId: string }) {
  const app = useApplicationContext()!;
  const { model, keys, conversations, documents, tools } = useOverviewFacts(applicationId);
  const live = model.data?.find((config) => config.isDefault) ?? null;
  const rows: [string, ReactNode][] = [
    [o.model, fact(model, () => (live ? o.modelValue(live.name ?? '', live.modelId ?? '') : o.noModel))],
    [o.conversations, fact(conversations, () => formatNumber(conversations.data!))],
    [o.keys, fact(keys, () => formatNumber(keys.data!.filter((k) => k.isActive && (k.applicationId === applicationId || !k.applicationId)).length))],
    [o.documents, fact(documents, () => formatNumber(documents.data!))],
    [o.tools, fact(tools, () => formatNumber(tools.data!.length))],
    [o.origins, app.allowedOrigins?.length ? app.allowedOrigins.join(', ') : o.noOrigins],
    [o.hostedPage, app.hostedPage?.enabled ? o.on : o.off],
  ];
  return (
    <>
      <PageHeader title={o.title} description={app.description || o.noDescription} />
      <div className="ap-stack">
        <section className="ap-card ap-stack" aria-labelledby="ov-status">
          <h3 id="ov-status">{o.status}</h3>
          <dl className="ap-facts">
            {rows.map(([label, value]) => (
              <div key={label} className="ap-facts__row">
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </section>
        <section className="ap-card ap-stack" aria-labelledby="ov-next">
          <h3 id="ov-next">{o.next}</h3>
          <ul className="ap-overview-links">
            {Object.entries(o.goto).map(([tab, label]) => (
              <li key={tab}>
                <Link to={`/applications/${applicationId}/${tab}`}>
                  <ArrowRight aria-hidden size={14} /> {label}
                </Link>
              </li>
            ))}
            <li>
              <Link to={`/playground/${applicationId}`}>
                <MessagesSquare aria-hidden size={14} /> {o.tryIt}
              </Link>
            </li>
          </ul>
        </section>
      </div>
    </>
  );
}
