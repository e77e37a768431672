import { useId, useRef, useState } from 'react';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { downloadExport, inProgress, PAGE_SIZE, useExports, useImport, useRequestExport, type DataExport, type ExportRequest, type ImportBody, type ImportedApplication, type ImportResult } from './queries';
import { s } from './strings';

const MAX_IMPORT_BYTES = 1024 * 1024;

function ExportRow({ e }: { e: DataExport }) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const what = `${s.resourceNames[e.resources ?? 'all']} · ${(e.format ?? 'json').toUpperCase()}`;
  return (
    <tr>
      <th scope="row">{what}</th>
      <td>
        <span className={`dt-status dt-status--${e.status}`}>{s.status[e.status ?? ''] ?? e.status}</span>
        {e.status === 'pending' || e.status === 'running' ? <progress className="dt-progress" aria-label={s.status[e.status]} /> : null}
        {e.error ? <p className="ap-error-text">{e.error}</p> : null}
      </td>
      <td className="ap-num">{e.byteSize != null ? s.bytes(e.byteSize) : ''}</td>
      <td>{e.createdAt ? formatDateTime(e.createdAt) : ''}</td>
      <td>{e.expiresAt ? formatDateTime(e.expiresAt) : ''}</td>
      <td>
        <Button
          disabled={e.status !== 'ready' || !e.downloadUrl}
          busy={busy}
          aria-label={s.downloadLabel(what)}
          onClick={async () => {
            setBusy(true);
            setFailure(null);
            try {
              await downloadExport(e);
            } catch (error) {
              setFailure(error);
            } finally {
              setBusy(false);
            }
          }}
        >
          {s.download}
        </Button>
        <ErrorText error={failure} />
      </td>
    </tr>
  );
}

/** Exports seen waiting or being prepared on this page, announced once they are ready or failed. */
function useFinishedAnnouncement(items: DataExport[]): string {
  const followed = useRef(new Set<string>());
  for (const e of items) if (inProgress(e) && e.id) followed.current.add(e.id);
  return items
    .filter((e) => e.id && followed.current.has(e.id) && (e.status === 'ready' || e.status === 'failed'))
    .map((e) => `${s.resourceNames[e.resources ?? 'all']}: ${s.status[e.status!]}`)
    .join('. ');
}

function ExportList({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const list = useExports(page);
  const announcement = useFinishedAnnouncement(list.data?.items ?? []);
  if (list.isPending) return <Loading label={s.loadingExports} />;
  if (list.isError && !list.data) return <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  const { items, total } = list.data;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <>
      {list.isError ? <ErrorText error={list.error} /> : null}
      {items.length ? (
        <div className="ap-table-wrap">
          <table className="ap-table" aria-label={s.exportTitle}>
            <thead>
              <tr>
                <th scope="col">{s.exportColumns.what}</th>
                <th scope="col">{s.exportColumns.status}</th>
                <th scope="col">{s.exportColumns.size}</th>
                <th scope="col">{s.exportColumns.requested}</th>
                <th scope="col">{s.exportColumns.expires}</th>
                <th scope="col">{s.exportColumns.file}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <ExportRow key={e.id} e={e} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="ap-muted">{s.noExports}</p>
      )}
      {pages > 1 ? (
        <div className="ap-actions" aria-label={s.total(total)}>
          <span className="ap-muted">{s.total(total)}</span>
          <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {s.previous}
          </Button>
          <span>{s.page(page, pages)}</span>
          <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {s.next}
          </Button>
        </div>
      ) : null}
      <p className="ap-visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

function Exports() {
  const request = useRequestExport();
  const [page, setPage] = useState(1);
  const [form, setForm] = useState<ExportRequest>({ resources: 'all', format: 'json' });
  const resId = useId();
  const fmtId = useId();
  return (
    <section className="ap-card ap-stack" aria-labelledby="dt-export">
      <h2 id="dt-export">{s.exportTitle}</h2>
      <p className="ap-muted">{s.exportBody}</p>
      <form
        className="ap-inline-form"
        onSubmit={(ev) => {
          ev.preventDefault();
          // A new export goes to the top of the list: show the first page.
          request.mutate(form, { onSuccess: () => setPage(1) });
        }}
      >
        <div className="ap-field">
          <label htmlFor={resId}>{s.resources}</label>
          <select id={resId} className="ap-select" value={form.resources} onChange={(ev) => setForm({ ...form, resources: ev.target.value as ExportRequest['resources'] })}>
            {Object.entries(s.resourceNames).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="ap-field">
          <label htmlFor={fmtId}>{s.format}</label>
          <select id={fmtId} className="ap-select" value={form.format} onChange={(ev) => setForm({ ...form, format: ev.target.value as ExportRequest['format'] })}>
            {Object.entries(s.formatNames).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="primary" busy={request.isPending}>
          {s.start}
        </Button>
      </form>
      <ErrorText error={request.error} />
      <ExportList page={page} onPage={setPage} />
    </section>
  );
}

/** Reads the pasted or chosen JSON: the applications to send (with the document's version, which the server checks), or why not. */
function parseImport(text: string): ImportBody | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: s.jsonInvalid((error as Error).message) };
  }
  const doc = parsed as { applications?: unknown; version?: unknown } | null;
  const apps = doc?.applications;
  if (!Array.isArray(apps) || !apps.length) return { problem: s.noApplications };
  return { applications: apps as ImportedApplication[], ...(doc?.version !== undefined ? { version: doc.version as number } : {}) };
}

/** What a result's last cell says: why it failed, or what was left out of it, or the application it names. */
function ResultDetail({ result }: { result: ImportResult }) {
  if (result.error) return <>{result.error}</>;
  if (result.refused?.length) {
    return (
      <div className="dt-refused">
        <span>{s.refusedItems(result.refused.length)}</span>
        <ul>
          {result.refused.map((r) => (
            <li key={r.item}>
              <code>{r.item}</code> {r.error}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return <>{result.applicationId ?? ''}</>;
}

function Import() {
  const importer = useImport();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, setSent] = useState<ImportedApplication[]>([]);
  const fileId = useId();
  const result = importer.data;
  return (
    <section className="ap-card ap-stack" aria-labelledby="dt-import">
      <h2 id="dt-import">{s.importTitle}</h2>
      <p className="ap-muted">{s.importBody}</p>
      <form
        className="ap-stack"
        onSubmit={(ev) => {
          ev.preventDefault();
          const read = parseImport(text);
          if ('problem' in read) {
            setProblem(read.problem);
            return;
          }
          setProblem(null);
          setSent(read.applications);
          importer.mutate(read);
        }}
      >
        <div className="ap-field">
          <label htmlFor={fileId}>{s.file}</label>
          <input
            id={fileId}
            type="file"
            accept="application/json,.json"
            onChange={async (ev) => {
              const file = ev.target.files?.[0];
              if (!file) return;
              if (file.size > MAX_IMPORT_BYTES) {
                setProblem(s.fileTooLarge);
                return;
              }
              setProblem(null);
              setText(await file.text());
            }}
          />
        </div>
        <TextArea label={s.json} hint={s.jsonHint} className="ap-code-input" rows={8} spellCheck={false} value={text} onChange={(ev) => setText(ev.target.value)} error={problem ?? undefined} />
        <ErrorText error={importer.error} />
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={importer.isPending} disabled={!text.trim()}>
            {s.import}
          </Button>
        </div>
      </form>
      {result ? (
        <>
          <p role="status">{s.summary(result.created ?? 0, result.skipped ?? 0, result.failed ?? 0)}</p>
          <DataTable
            aria-label={s.importTitle}
            rows={result.results ?? []}
            rowKey={(r) => r.index}
            rowProps={(r) => ({ className: `dt-result dt-result--${r.status}` })}
            columns={[
              { header: s.resultColumns.record, rowHeader: true, cell: (r) => s.record(r.index) },
              { header: s.resultColumns.name, cell: (r) => String(sent[r.index]?.name ?? '') },
              { header: s.resultColumns.status, cell: (r) => <span className={`dt-status dt-status--${r.status}`}>{s.resultStatus[r.status] ?? r.status}</span> },
              { header: s.resultColumns.detail, cell: (r) => <ResultDetail result={r} /> },
            ]}
          />
        </>
      ) : null}
    </section>
  );
}

/** Data: the account's exports listed, followed live and downloaded; import with one result per record. */
export default function Data() {
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <div className="ap-stack">
        <Exports />
        <Import />
      </div>
    </>
  );
}
