import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ApplicationScope } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDate } from '../../lib/format';
import { priceOf } from './ItemCard';
import { useBuyLicense, useInstallPlugin, useInstallTheme, useItem, useVersions, type ItemDetail as Detail, type Kind, type Version } from './queries';
import { Reviews } from './Reviews';
import { categoryName, s } from './strings';

/** One plugin or theme: facts, description (text), versions, rating distribution, reviews, install and buy. */
export default function ItemDetail({ kind }: { kind: Kind }) {
  const { id = '' } = useParams();
  const item = useItem(kind, id);
  const versions = useVersions(id, kind === 'plugins');

  const back = (
    <Link className="ap-button ap-button--ghost" to={kind === 'themes' ? '/market?kind=themes' : '/market'}>
      <ArrowLeft aria-hidden size={16} />
      {s.back}
    </Link>
  );
  if (item.isPending) return <Loading />;
  if (item.isError)
    return (
      <>
        {back}
        <ErrorState error={item.error} onRetry={() => void item.refetch()} />
      </>
    );
  const it = item.data;
  return (
    <>
      {back}
      <PageHeader title={it.displayName || it.name} description={`${s.by(it.author)} · ${categoryName(it.category)}`} />
      <div className="ap-mk-detail">
        <div className="ap-stack">
          <section className="ap-card" aria-label={it.displayName || it.name}>
            <p className="ap-mk-text ap-mk-description">{it.description}</p>
            <dl className="ap-facts">
              <div className="ap-facts__row">
                <dt>{s.facts.version}</dt>
                <dd>{it.version}</dd>
              </div>
              <div className="ap-facts__row">
                <dt>{s.facts.price}</dt>
                <dd>{priceOf(it)}</dd>
              </div>
              <div className="ap-facts__row">
                <dt>{s.facts.installs}</dt>
                <dd>{it.downloadCount}</dd>
              </div>
              {it.homepage ? (
                <div className="ap-facts__row">
                  <dt>{s.facts.homepage}</dt>
                  <dd>
                    <ExternalLink href={it.homepage} />
                  </dd>
                </div>
              ) : null}
              {it.repository ? (
                <div className="ap-facts__row">
                  <dt>{s.facts.repository}</dt>
                  <dd>
                    <ExternalLink href={it.repository} />
                  </dd>
                </div>
              ) : null}
            </dl>
          </section>
          {kind === 'plugins' ? <Versions versions={versions} /> : null}
          <Reviews kind={kind} item={it} />
        </div>
        <div className="ap-stack">
          <Distribution item={it} />
          {kind === 'plugins' ? <InstallPlugin item={it} versions={versions.data ?? []} /> : <InstallTheme item={it} />}
        </div>
      </div>
    </>
  );
}

/** The rating distribution: one native progress bar per star count (no inline styles under the CSP). */
function Distribution({ item }: { item: Detail }) {
  const stats = item.ratingStats ?? { averageRating: item.averageRating, totalReviews: item.ratingCount, distribution: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } };
  const total = stats.totalReviews || 0;
  return (
    <section className="ap-card ap-stack" aria-labelledby="mk-ratings">
      <h2 id="mk-ratings">{s.ratings}</h2>
      <p className="ap-strong">{s.rating(stats.averageRating, total)}</p>
      <ul className="ap-mk-bars" aria-label={s.ratings}>
        {(['5', '4', '3', '2', '1'] as const).map((n) => {
          const count = stats.distribution?.[n] ?? 0;
          return (
            <li key={n}>
              <span>{s.stars(Number(n))}</span>
              <progress max={Math.max(total, 1)} value={count} aria-label={s.starCount(Number(n), count)} />
              <span className="ap-num">{count}</span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function Versions({ versions }: { versions: ReturnType<typeof useVersions> }) {
  let body;
  if (versions.isPending) body = <Loading />;
  else if (versions.isError) body = <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />;
  else if (!versions.data.length) body = <p className="ap-muted">{s.noVersions}</p>;
  else
    body = (
      <DataTable
        rows={versions.data}
        rowKey={(v) => v.version}
        columns={[
          { header: s.versionColumns.version, rowHeader: true, cell: (v) => v.version },
          { header: s.versionColumns.released, cell: (v) => formatDate(v.releasedAt) },
          {
            header: s.versionColumns.compatibility,
            cell: (v) => (
              <>
                {s.compatibility(v.compatibility.minPlatformVersion, v.compatibility.maxPlatformVersion)}
                {v.compatible === false ? <span className="ap-muted"> ({s.incompatible})</span> : null}
              </>
            ),
          },
          { header: s.versionColumns.changelog, className: 'ap-mk-text', cell: (v) => v.changelog || s.noChangelog },
        ]}
      />
    );
  return (
    <section className="ap-card ap-stack" aria-labelledby="mk-versions">
      <h2 id="mk-versions">{s.versions}</h2>
      {body}
    </section>
  );
}

/** Install into one of the caller's applications (a chosen version, or the newest compatible), and buy a paid one. */
function InstallPlugin({ item, versions }: { item: Detail; versions: Version[] }) {
  const install = useInstallPlugin();
  const [version, setVersion] = useState('');
  const [done, setDone] = useState('');
  return (
    <section className="ap-card ap-stack" aria-labelledby="mk-install">
      <h2 id="mk-install">{s.installTitle}</h2>
      {item.isPaid && item.price ? <Buy item={item} /> : null}
      <ApplicationScope id="mk-app" emptyBody={s.noApplicationsInstall}>
        {(appId, app) => (
          <form
            className="ap-stack"
            onSubmit={(e) => {
              e.preventDefault();
              setDone('');
              install.mutate(
                { appId, marketplacePluginId: item.id, version: version || undefined },
                { onSuccess: (installed) => setDone(s.installed(app.name ?? '', installed.version ?? (version || item.version))) },
              );
            }}
          >
            <div className="ap-field">
              <label htmlFor="mk-version">{s.installVersion}</label>
              <select id="mk-version" className="ap-select" value={version} onChange={(e) => setVersion(e.target.value)}>
                <option value="">{s.newestCompatible}</option>
                {versions
                  .filter((v) => v.compatible !== false)
                  .map((v) => (
                    <option key={v.version} value={v.version}>
                      {v.version}
                    </option>
                  ))}
              </select>
            </div>
            <ErrorText error={install.error} />
            <div className="ap-actions">
              <Button type="submit" variant="primary" busy={install.isPending}>
                {install.isPending ? s.installing : s.installButton}
              </Button>
            </div>
          </form>
        )}
      </ApplicationScope>
      <p role="status" className={done ? 'ap-notice' : 'ap-visually-hidden'}>
        {done}
      </p>
    </section>
  );
}

function InstallTheme({ item }: { item: Detail }) {
  const install = useInstallTheme();
  return (
    <section className="ap-card ap-stack" aria-labelledby="mk-install">
      <h2 id="mk-install">{s.themeInstallTitle}</h2>
      {item.isPaid && item.price ? <Buy item={item} /> : null}
      <ErrorText error={install.error} />
      <div className="ap-actions">
        <Button variant="primary" busy={install.isPending} onClick={() => install.mutate(item.id)}>
          {s.installThemeButton}
        </Button>
      </div>
      <p role="status" className={install.isSuccess ? 'ap-notice' : 'ap-visually-hidden'}>
        {install.isSuccess ? s.themeInstalled(item.displayName || item.name) : ''}
      </p>
    </section>
  );
}

/** A paid item: Checkout opens on the payment processor's page; its license is issued when the payment completes. */
function Buy({ item }: { item: Detail }) {
  const buy = useBuyLicense();
  const price = priceOf(item);
  return (
    <div className="ap-stack">
      <p>{s.paid(price)}</p>
      <p className="ap-muted">{s.buyHint}</p>
      <ErrorText error={buy.error} />
      <div className="ap-actions">
        <Button busy={buy.isPending} onClick={() => buy.mutate(item.id, { onSuccess: (session) => window.location.assign(session.url) })}>
          {buy.isPending ? s.buying : s.buy(price)}
        </Button>
      </div>
    </div>
  );
}

/** A link the author gave: only http(s) addresses become links (the marketplace accepts no others), opened apart. */
function ExternalLink({ href }: { href: string }) {
  if (!/^https?:\/\//i.test(href)) return <>{href}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {href}
    </a>
  );
}
