import { useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { Field } from '../../components/Field';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDateTime } from '../../lib/format';
import { t } from '../../lib/strings';
import { useDiff, useRestore, useStartAb, useVersions, type StudioDiff, type StudioDraft } from './queries';
import { s } from './strings';

/** Published versions: each with its note, who and when, compared side by side with the draft, restored, or put under A/B test. */
export function VersionsPanel({ appId, liveVersion, onRestored, onNotice, dirty, canEdit }: { appId: string; canEdit: boolean; liveVersion: number | null; onRestored: (draft: StudioDraft) => void; onNotice: (text: string) => void; dirty: boolean }) {
  const versions = useVersions(appId);
  const [compare, setCompare] = useState<number | null>(null);
  const [restore, setRestore] = useState<number | null>(null);
  const [ab, setAb] = useState<number | null>(null);
  const restoring = useRestore(appId);

  return (
    <section className="ap-card ap-studio-section" aria-labelledby="studio-versions-title">
      <h2 id="studio-versions-title" className="ap-side-title">
        {s.versions}
      </h2>
      {versions.isPending ? (
        <Loading />
      ) : versions.isError ? (
        <ErrorState error={versions.error} onRetry={() => void versions.refetch()} />
      ) : versions.data.length ? (
        <ol className="ap-studio-versions">
          {versions.data.map((v) => (
            <li key={v.number} className="ap-studio-version">
              <p>
                <span className="ap-strong">{s.versionLabel(v.number!)}</span>
                {v.number === liveVersion ? <span className="ap-studio-badge">{s.live}</span> : null}
                <span className="ap-muted ap-block">{s.versionMeta(v.publishedBy?.email ?? '—', formatDateTime(v.publishedAt!))}</span>
              </p>
              {v.note ? <p>{v.note}</p> : null}
              <div className="ap-row-actions">
                <Button onClick={() => setCompare(v.number!)} aria-label={s.compare(v.number!)}>
                  {s.compareShort}
                </Button>
                <Button disabled={!canEdit} onClick={() => setRestore(v.number!)} aria-label={s.restore(v.number!)}>
                  {s.restoreShort}
                </Button>
                <Button disabled={!canEdit} onClick={() => setAb(v.number!)} aria-label={s.startAb(v.number!)}>
                  {s.abShort}
                </Button>
              </div>
            </li>
          ))}
        </ol>
      ) : (
        <p className="ap-muted">{s.noVersions}</p>
      )}
      <Dialog open={compare !== null} onOpenChange={(open) => !open && setCompare(null)} title={compare !== null ? s.compareTitle(s.versionLabel(compare), s.savedDraft) : ''}>
        {compare !== null ? <DiffView appId={appId} from={compare} /> : null}
      </Dialog>
      <ConfirmDialog
        open={restore !== null}
        onOpenChange={(open) => {
          if (!open) {
            setRestore(null);
            restoring.reset();
          }
        }}
        title={restore !== null ? s.restoreTitle(restore) : ''}
        description={`${s.restoreBody}${dirty ? ` ${s.leaveBody}` : ''}`}
        confirmLabel={s.restoreConfirm}
        busy={restoring.isPending}
        error={restoring.error}
        onConfirm={() =>
          restoring.mutate(restore!, {
            onSuccess: (view) => {
              onRestored(view);
              onNotice(s.restored(restore!));
              setRestore(null);
            },
          })
        }
      />
      {ab !== null ? <AbDialog appId={appId} version={ab} onClose={() => setAb(null)} onNotice={onNotice} /> : null}
    </section>
  );
}

/** Two configurations side by side, field by field, the changed ones marked. */
function DiffView({ appId, from }: { appId: string; from: number }) {
  const diff = useDiff(appId, String(from), 'draft');
  if (diff.isPending) return <Loading />;
  if (diff.isError) return <ErrorState error={diff.error} onRetry={() => void diff.refetch()} />;
  return <DiffTable diff={diff.data} />;
}

export function DiffTable({ diff }: { diff: StudioDiff }) {
  return (
    <>
      {!diff.changed ? <p className="ap-muted">{s.noDifferences}</p> : null}
      {/* Scrolls inside itself on narrow screens, so it is a focusable, named region. */}
      <div className="ap-table-wrap ap-studio-diff" tabIndex={0} role="region" aria-label={s.compareTitle(diff.from!.label!, diff.to!.label!)}>
      <table className="ap-table">
        <caption className="ap-visually-hidden">{s.compareTitle(diff.from!.label!, diff.to!.label!)}</caption>
        <thead>
          <tr>
            <th scope="col">{s.field}</th>
            <th scope="col">{diff.from!.label}</th>
            <th scope="col">{diff.to!.label}</th>
          </tr>
        </thead>
        <tbody>
          {diff.fields!.map((f) => (
            <tr key={f.field} className={f.changed ? 'ap-studio-diff__changed' : undefined}>
              <th scope="row">
                {f.label}
                <span className="ap-block ap-muted">{f.changed ? s.changed : s.unchanged}</span>
              </th>
              <td>
                <pre className="ap-studio-pre">{f.from}</pre>
              </td>
              <td>
                <pre className="ap-studio-pre">{f.to}</pre>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </>
  );
}

function AbDialog({ appId, version, onClose, onNotice }: { appId: string; version: number; onClose: () => void; onNotice: (text: string) => void }) {
  const [percent, setPercent] = useState('10');
  const start = useStartAb(appId);
  const value = Number(percent);
  const invalid = percent.trim() === '' || !Number.isFinite(value) || value < 0 || value > 100;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={s.startAbTitle(version)} description={s.startAbBody}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (invalid) return;
          start.mutate(
            { n: version, trafficPercent: value },
            {
              onSuccess: (created) => {
                onNotice(s.abStarted(created.label ?? s.versionLabel(version), value));
                onClose();
              },
            },
          );
        }}
      >
        <Field label={s.traffic} type="number" min={0} max={100} step={1} value={percent} onChange={(e) => setPercent(e.target.value)} hint={s.trafficHint} error={invalid ? s.trafficHint : undefined} />
        <ErrorText error={start.error} />
        <div className="ap-actions">
          <Button onClick={onClose}>{t.cancel}</Button>
          <Button type="submit" variant="primary" busy={start.isPending} disabled={invalid}>
            {s.startAbConfirm}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
