import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { DataTable } from '../../components/DataTable';
import { TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { Editor } from './Editor';
import { Timeline } from './Timeline';
import { formatDate } from './format';
import { useDeleteWorkflow, usePauseWorkflow, useRuns, useTrigger, useWorkflow, useWriteAccess, type Workflow } from './queries';
import { s } from './strings';

/** Run with an input (JSON, checked before it is sent). */
function RunForm({ workflow, onStarted, readOnly }: { workflow: Workflow; onStarted: (runId: string) => void; readOnly: boolean }) {
  const trigger = useTrigger(workflow.id!);
  const [input, setInput] = useState('{}');
  const [invalid, setInvalid] = useState<string | null>(null);
  return (
    <form
      className="ap-stack"
      onSubmit={(e) => {
        e.preventDefault();
        let parsed: unknown;
        try {
          parsed = JSON.parse(input || 'null');
        } catch (error) {
          setInvalid(s.jsonInvalid((error as Error).message));
          return;
        }
        setInvalid(null);
        trigger.mutate(parsed, { onSuccess: (r) => onStarted(r.runId!) });
      }}
    >
      <TextArea label={s.input} hint={s.inputHint} className="ap-code-input" rows={4} value={input} onChange={(e) => setInput(e.target.value)} error={invalid ?? undefined} spellCheck={false} />
      <ErrorText error={trigger.error} />
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={trigger.isPending} disabled={readOnly}>
          {s.run}
        </Button>
      </div>
    </form>
  );
}

function Runs({ workflowId, chosen, onChoose }: { workflowId: string; chosen: string | null; onChoose: (id: string) => void }) {
  const [page, setPage] = useState(1);
  const runs = useRuns(workflowId, page);
  if (runs.isPending) return <Loading />;
  if (runs.isError) return <ErrorState error={runs.error} onRetry={() => void runs.refetch()} />;
  if (!runs.data.length && page === 1) return <EmptyState title={s.noRuns}>{s.noRunsBody}</EmptyState>;
  return (
    <>
      <DataTable
        rows={runs.data}
        rowKey={(r) => r.id!}
        rowProps={(r) => ({ 'aria-current': chosen === r.id || undefined })}
        columns={[
          {
            header: s.runColumns.run,
            rowHeader: true,
            cell: (r) => (
              <Button variant="ghost" aria-label={s.open(r.id!)} onClick={() => onChoose(r.id!)}>
                {r.id!.slice(0, 8)}
              </Button>
            ),
          },
          { header: s.runColumns.status, cell: (r) => <span className={`wf-status wf-status--${r.status}`}>{s.status[r.status!] ?? r.status}</span> },
          { header: s.runColumns.trigger, cell: (r) => r.trigger },
          { header: s.runColumns.steps, className: 'ap-num', cell: (r) => r.stepsDone },
          { header: s.runColumns.started, cell: (r) => formatDate(r.createdAt) },
        ]}
      />
      <div className="ap-actions">
        <Button disabled={page === 1} onClick={() => setPage(page - 1)}>
          {s.previous}
        </Button>
        <Button disabled={runs.data.length < 20} onClick={() => setPage(page + 1)}>
          {s.next}
        </Button>
      </div>
    </>
  );
}

function Loaded({ workflow }: { workflow: Workflow }) {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const pause = usePauseWorkflow(workflow.id!);
  const remove = useDeleteWorkflow();
  const [confirm, setConfirm] = useState(false);
  const chosen = params.get('run');
  const { canWrite } = useWriteAccess(workflow.applicationId);
  const readOnly = !canWrite;
  const choose = (runId: string) => setParams({ run: runId });
  return (
    <>
      <PageHeader
        title={workflow.name ?? ''}
        description={`${s.version(workflow.version ?? 1)} · ${workflow.paused ? s.paused : s.active}`}
        actions={
          <>
            <Button busy={pause.isPending} disabled={readOnly} onClick={() => pause.mutate(!workflow.paused)}>
              {workflow.paused ? s.resume : s.pause}
            </Button>
            <Button variant="danger" disabled={readOnly} onClick={() => setConfirm(true)}>
              {s.deleteWorkflow}
            </Button>
          </>
        }
      />
      <Link to={`/workflows?app=${workflow.applicationId}`} className="ap-back">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      {readOnly ? (
        <p className="ap-notice" id="wf-viewer">
          {s.viewerNote}
        </p>
      ) : null}
      <ErrorText error={pause.error} />
      {workflow.paused ? <p className="ap-notice">{s.pausedNote}</p> : null}
      <Editor key={`${workflow.id}-${workflow.version}`} workflow={workflow} applicationId={workflow.applicationId ?? null} readOnly={readOnly} />
      <section className="ap-card ap-stack" aria-labelledby="wf-run">
        <h2 id="wf-run">{s.runTitle}</h2>
        <RunForm workflow={workflow} onStarted={choose} readOnly={readOnly} />
      </section>
      <section className="ap-card ap-stack" aria-labelledby="wf-runs">
        <h2 id="wf-runs">{s.runsTitle}</h2>
        <Runs workflowId={workflow.id!} chosen={chosen} onChoose={choose} />
        {chosen ? <Timeline key={chosen} runId={chosen} workflowId={workflow.id!} readOnly={readOnly} /> : null}
      </section>
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title={s.deleteTitle(workflow.name ?? '')}
        description={s.deleteBody}
        confirmLabel={s.deleteWorkflow}
        busy={remove.isPending}
        error={remove.error}
        onConfirm={() => remove.mutate(workflow.id!, { onSuccess: () => navigate(`/workflows?app=${workflow.applicationId}`) })}
      />
    </>
  );
}

/** One workflow: its graph editor, pause and resume, a run with an input, its runs and a run's live timeline. */
export default function Detail() {
  const { id = '' } = useParams();
  const workflow = useWorkflow(id);
  if (workflow.isPending) return <Loading />;
  if (workflow.isError) return <ErrorState error={workflow.error} onRetry={() => void workflow.refetch()} />;
  return <Loaded workflow={workflow.data} />;
}

/** A new workflow for the application in `?app=`. */
export function NewWorkflow() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const app = params.get('app');
  return (
    <>
      <PageHeader title={s.newTitle} />
      <Link to={app ? `/workflows?app=${app}` : '/workflows'} className="ap-back">
        <ArrowLeft aria-hidden size={16} />
        {s.back}
      </Link>
      <Editor workflow={null} applicationId={app} onSaved={(w) => navigate(`/workflows/${w.id}`)} />
    </>
  );
}
