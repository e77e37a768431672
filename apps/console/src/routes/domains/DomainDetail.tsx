import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { DataTable } from '../../components/DataTable';
import { TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { formatDate, formatDateTime } from '../../lib/format';
import { daysUntil, formatHeaders, parseHeaders, useActivateDomain, useDeleteDomain, useDomain, useDomainSettings, useVerifyDomain, type CustomDomain } from './queries';
import { s } from './strings';

/** One custom domain: its DNS records, verification with the failure reason, activation, settings and certificate. */
export default function DomainDetail() {
  const { id = '' } = useParams();
  const domain = useDomain(id);
  if (domain.isPending) return <Loading />;
  if (domain.isError)
    return (
      <>
        <p>
          <Link to="/domains">{s.back}</Link>
        </p>
        <ErrorState error={domain.error} onRetry={() => void domain.refetch()} />
      </>
    );
  return <Detail d={domain.data} />;
}

function Detail({ d }: { d: CustomDomain }) {
  const id = d.id!;
  const verify = useVerifyDomain(id);
  const activate = useActivateDomain(id);
  const remove = useDeleteDomain();
  const navigate = useNavigate();
  const [removing, setRemoving] = useState(false);
  const status = d.status ?? 'pending';
  return (
    <>
      <PageHeader
        title={d.domain ?? ''}
        description={<span className={`ap-dm-status ap-dm-status--${status}`}>{s.status[status] ?? status}</span>}
        actions={<Link to="/domains">{s.back}</Link>}
      />
      <div className="ap-stack">
        <section className="ap-card ap-stack" aria-labelledby="dm-records">
          <h2 id="dm-records">{s.records.title}</h2>
          <p className="ap-muted">{s.records.body}</p>
          <DataTable
            rows={d.dnsRecords ?? []}
            rowKey={(r) => `${r.type}-${r.name}`}
            columns={[
              { header: s.records.type, rowHeader: true, cell: (r) => r.type },
              {
                header: s.records.name,
                cell: (r) => (
                  <div className="ap-dm-copy">
                    <code>{r.name}</code>
                    <CopyButton value={r.name ?? ''} label={s.records.copyName(r.type ?? '')} />
                  </div>
                ),
              },
              {
                header: s.records.value,
                cell: (r) => (
                  <div className="ap-dm-copy">
                    <code>{r.value}</code>
                    <CopyButton value={r.value ?? ''} label={s.records.copyValue(r.type ?? '')} />
                  </div>
                ),
              },
            ]}
          />
        </section>

        <section className="ap-card ap-stack" aria-labelledby="dm-verify">
          <h2 id="dm-verify">{s.verify.title}</h2>
          {status === 'failed' && d.failureReason ? (
            <p className="ap-error-text" role="alert">
              <span className="ap-strong">{s.verify.failed}</span> {d.failureReason}
            </p>
          ) : null}
          {status === 'pending' ? <p className="ap-muted">{s.verify.pending}</p> : null}
          {d.verifiedAt && status !== 'failed' ? <p>{s.verify.verifiedAt(formatDateTime(d.verifiedAt))}</p> : null}
          {d.lastCheckedAt ? <p className="ap-muted">{s.verify.lastChecked(formatDateTime(d.lastCheckedAt))}</p> : null}
          <ErrorText error={verify.error} />
          <div className="ap-actions">
            {status !== 'active' ? (
              <Button variant={status === 'verified' ? 'secondary' : 'primary'} busy={verify.isPending} onClick={() => verify.mutate(undefined)}>
                {s.verify.button}
              </Button>
            ) : null}
            {status === 'active' ? (
              <p>
                {s.activate.active(formatDateTime(d.activatedAt ?? d.verifiedAt ?? new Date().toISOString()))}{' '}
                <a href={`https://${d.domain}/`} target="_blank" rel="noopener noreferrer">
                  {s.activate.link}
                </a>
              </p>
            ) : (
              <>
                <Button variant={status === 'verified' ? 'primary' : 'secondary'} busy={activate.isPending} disabled={status !== 'verified'} aria-describedby={status !== 'verified' ? 'dm-activate-why' : undefined} onClick={() => activate.mutate(undefined)}>
                  {s.activate.button}
                </Button>
                {status !== 'verified' ? (
                  <span id="dm-activate-why" className="ap-muted">
                    {s.activate.needsVerification}
                  </span>
                ) : null}
              </>
            )}
          </div>
          <ErrorText error={activate.error} />
        </section>

        <Settings d={d} />
        <Certificate d={d} />

        <div className="ap-actions">
          <Button variant="danger" onClick={() => setRemoving(true)}>
            {s.remove.button}
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={s.remove.title(d.domain ?? '')}
        description={s.remove.body}
        confirmLabel={s.remove.confirm}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(id, { onSuccess: () => navigate('/domains') })}
      />
    </>
  );
}

function Settings({ d }: { d: CustomDomain }) {
  const save = useDomainSettings(d.id!);
  const [redirectWww, setRedirectWww] = useState(d.settings?.redirectWww === true);
  const [forceHttps, setForceHttps] = useState(d.settings?.forceHttps === true);
  const [headers, setHeaders] = useState(formatHeaders(d.settings?.customHeaders));
  const [badLine, setBadLine] = useState<number | null>(null);
  const [saved, setSaved] = useState(false);
  const error = save.error instanceof ApiError ? save.error : null;
  const headersError = badLine ? s.settings.badLine(badLine) : error?.fieldMessage('customHeaders');
  return (
    <form
      className="ap-card ap-stack"
      aria-labelledby="dm-settings"
      noValidate
      onChange={() => setSaved(false)}
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = parseHeaders(headers);
        setBadLine(parsed.badLine);
        if (parsed.badLine) return;
        save.mutate({ redirectWww, forceHttps, customHeaders: parsed.headers }, { onSuccess: () => setSaved(true) });
      }}
    >
      <h2 id="dm-settings">{s.settings.title}</h2>
      <div className="ap-dm-check">
        <input id="dm-www" type="checkbox" checked={redirectWww} onChange={(e) => setRedirectWww(e.target.checked)} />
        <label htmlFor="dm-www">{s.settings.redirectWww}</label>
      </div>
      <div className="ap-dm-check">
        <input id="dm-https" type="checkbox" checked={forceHttps} onChange={(e) => setForceHttps(e.target.checked)} />
        <label htmlFor="dm-https">{s.settings.forceHttps}</label>
      </div>
      <TextArea label={s.settings.headers} hint={s.settings.headersHint} rows={3} className="ap-code-input" spellCheck={false} value={headers} onChange={(e) => setHeaders(e.target.value)} error={headersError} />
      <ErrorText error={headersError ? null : save.error} />
      <div className="ap-actions">
        <Button type="submit" busy={save.isPending}>
          {s.settings.save}
        </Button>
        <span role="status" className="ap-muted">
          {saved ? s.settings.saved : ''}
        </span>
      </div>
    </form>
  );
}

function Certificate({ d }: { d: CustomDomain }) {
  const ssl = d.ssl ?? {};
  const days = ssl.expiresAt ? daysUntil(ssl.expiresAt) : null;
  return (
    <section className="ap-card ap-stack" aria-labelledby="dm-cert">
      <h2 id="dm-cert">
        <ShieldCheck aria-hidden size={18} /> {s.certificate.title}
      </h2>
      {ssl.expiresAt && days !== null ? (
        <p className={days < 14 ? 'ap-error-text' : undefined}>
          {days < 14 ? `${s.certificate.expires(formatDate(ssl.expiresAt), days)} ${s.certificate.soon}` : s.certificate.expires(formatDate(ssl.expiresAt), days)}
        </p>
      ) : (
        <p className="ap-muted">{s.certificate.none}</p>
      )}
      {ssl.checkedAt ? <p className="ap-muted">{s.certificate.checked(formatDateTime(ssl.checkedAt))}</p> : null}
      {ssl.error ? (
        <p>
          <span className="ap-strong">{s.certificate.error}</span> {ssl.error}
        </p>
      ) : null}
    </section>
  );
}
