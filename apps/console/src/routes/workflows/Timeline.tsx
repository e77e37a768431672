import { Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorState, Loading } from '../../components/States';
import { asText } from './format';
import { isFinished, useCancelRun, useRun } from './queries';
import { s } from './strings';

/** A value of a run (input, output): indented JSON in a <pre>, as text. */
function Value({ label, value }: { label: string; value: unknown }) {
  if (value === undefined || value === null) return null;
  return (
    <details className="wf-value">
      <summary>{label}</summary>
      <pre>{asText(value)}</pre>
    </details>
  );
}

/** A run's live timeline: each finished step with its input, output, error, attempts, tokens and time. */
export function Timeline({ runId, workflowId, readOnly = false }: { runId: string; workflowId: string; readOnly?: boolean }) {
  const run = useRun(runId);
  const cancel = useCancelRun(workflowId);
  const [confirm, setConfirm] = useState(false);
  if (run.isPending) return <Loading />;
  if (run.isError) return <ErrorState error={run.error} onRetry={() => void run.refetch()} />;
  const r = run.data;
  const live = !isFinished(r.status);
  return (
    <section className="wf-run ap-stack" aria-labelledby="wf-timeline" aria-busy={live || undefined}>
      <div className="ap-page-header">
        <h3 id="wf-timeline">{s.timelineTitle(runId)}</h3>
        {live ? (
          <Button variant="danger" disabled={readOnly} title={readOnly ? s.viewerNote : undefined} onClick={() => setConfirm(true)}>
            {s.cancelRun}
          </Button>
        ) : null}
      </div>
      <dl className="ap-facts">
        <div className="ap-facts__row">
          <dt>{s.runFacts.status}</dt>
          <dd>
            <span className={`wf-status wf-status--${r.status}`} role="status">
              {s.status[r.status!] ?? r.status}
            </span>
          </dd>
        </div>
        <div className="ap-facts__row">
          <dt>{s.runFacts.trigger}</dt>
          <dd>{r.trigger}</dd>
        </div>
        <div className="ap-facts__row">
          <dt>{s.runFacts.version}</dt>
          <dd>{r.version}</dd>
        </div>
        <div className="ap-facts__row">
          <dt>{s.runFacts.tokens}</dt>
          <dd>{r.tokensUsed ?? 0}</dd>
        </div>
      </dl>
      {r.error ? (
        <p className="wf-error">
          <strong>{s.runError}: </strong>
          {r.error}
        </p>
      ) : null}
      <Value label={s.runInput} value={r.input} />
      <Value label={s.runOutput} value={r.output} />
      {r.steps?.length ? (
        <ol className="wf-timeline" aria-label={s.timelineTitle(runId)}>
          {r.steps.map((step) => (
            <li key={step.seq} className={`wf-timeline__step wf-timeline__step--${step.status}`}>
              <div className="wf-timeline__head">
                <strong>{step.stepId}</strong>
                <span className="ap-muted">{step.kind}</span>
                <span className={`wf-status wf-status--${step.status}`}>{s.status[step.status!] ?? step.status}</span>
                <span className="ap-muted">{s.attempts(step.attempts ?? 1)}</span>
                <span className="ap-muted">{s.duration(step.durationMs ?? 0)}</span>
                {step.tokens ? <span className="ap-muted">{s.tokens(step.tokens)}</span> : null}
              </div>
              {step.error ? (
                <p className="wf-error">
                  <strong>{s.stepError}: </strong>
                  {step.error}
                </p>
              ) : null}
              <Value label={s.stepInput} value={step.input} />
              <Value label={s.stepOutput} value={step.output} />
            </li>
          ))}
        </ol>
      ) : (
        <p className="ap-muted">{s.noSteps}</p>
      )}
      {live ? (
        <p className="ap-muted wf-live">
          <Loader2 aria-hidden className="ap-spin" size={16} />
          {s.inProgress(r.stepsDone ?? 0)}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={s.cancelTitle}
        description={s.cancelBody}
        confirmLabel={s.cancelRun}
        busy={cancel.isPending}
        error={cancel.error}
        onConfirm={() => cancel.mutate(runId, { onSuccess: () => setConfirm(false) })}
      />
    </section>
  );
}
