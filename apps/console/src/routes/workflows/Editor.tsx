import { Plus } from 'lucide-react';
import { Suspense, lazy, useId, useState } from 'react';
import { Button } from '../../components/Button';
import { Field, TextArea } from '../../components/Field';
import { ErrorText, Loading } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { useSaveWorkflow, type Workflow, type WorkflowStep } from './queries';
import { s } from './strings';

const Graph = lazy(() => import('./Graph'));

const KINDS: WorkflowStep['kind'][] = ['template', 'llm', 'knowledge', 'http', 'condition', 'plugin', 'webhook', 'wait'];

/** A new step's fields, enough to be valid once its texts are filled in. */
function newStep(kind: WorkflowStep['kind'], id: string): WorkflowStep {
  switch (kind) {
    case 'llm':
      return { id, kind, prompt: 'Summarise: {{input.text}}' };
    case 'knowledge':
      return { id, kind, query: '{{input.question}}' };
    case 'http':
      return { id, kind, method: 'GET', url: 'https://api.example.com/' };
    case 'condition':
      return { id, kind, expression: 'true', then: null, else: null };
    case 'plugin':
      return { id, kind, pluginId: '00000000-0000-0000-0000-000000000000', method: 'GET', path: '/' } as WorkflowStep;
    case 'webhook':
      return { id, kind, data: {} };
    case 'wait':
      return { id, kind, ms: 1000 };
    default:
      return { id, kind: 'template', text: 'Hello {{input.name}}' };
  }
}

/**
 * The API's refusals by step: `details[].path` names a step by id (`steps.<id>.<field>`) or by position
 * (`steps[<i>].<field>`); what names no step stays with the form.
 */
export function problemsByStep(error: unknown, steps: WorkflowStep[]): { byStep: Record<string, string[]>; other: string[] } {
  const byStep: Record<string, string[]> = {};
  const other: string[] = [];
  if (!(error instanceof ApiError) || error.status !== 400) return { byStep, other };
  const details = error.details.length ? error.details : [{ path: '', message: error.message }];
  for (const d of details) {
    const byId = /^steps\.([A-Za-z][A-Za-z0-9_-]*)/.exec(d.path);
    const byIndex = /^steps\[(\d+)\]/.exec(d.path);
    const id = byId?.[1] ?? (byIndex ? steps[Number(byIndex[1])]?.id : undefined);
    if (id && steps.some((st) => st.id === id)) (byStep[id] ??= []).push(d.message);
    else other.push(d.message);
  }
  return { byStep, other };
}

const toText = (steps: WorkflowStep[]) => JSON.stringify(steps, null, 2);

/** The step graph and its JSON side by side, with the workflow's name and hosts; saves through the API. */
export function Editor({ workflow, applicationId, onSaved, readOnly = false }: { workflow: Workflow | null; applicationId: string | null; onSaved?: (w: Workflow) => void; readOnly?: boolean }) {
  const save = useSaveWorkflow(workflow?.id ?? null, applicationId);
  const [name, setName] = useState(workflow?.name ?? '');
  const [description, setDescription] = useState(workflow?.description ?? '');
  const [hosts, setHosts] = useState((workflow?.allowedHosts ?? []).join(', '));
  const [steps, setSteps] = useState<WorkflowStep[]>(workflow?.steps ?? [newStep('template', 'greet')]);
  const [text, setText] = useState(toText(steps));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [kind, setKind] = useState<WorkflowStep['kind']>('template');
  const [saved, setSaved] = useState(false);
  const kindId = useId();

  const fromGraph = (next: WorkflowStep[]) => {
    setSteps(next);
    setText(toText(next));
    setJsonError(null);
    setSaved(false);
  };
  const fromText = (value: string) => {
    setText(value);
    setSaved(false);
    try {
      const parsed: unknown = JSON.parse(value);
      if (!Array.isArray(parsed) || parsed.some((x) => typeof x !== 'object' || x === null || typeof (x as WorkflowStep).id !== 'string')) {
        setJsonError(s.jsonNotArray);
        return;
      }
      setJsonError(null);
      setSteps(parsed as WorkflowStep[]);
    } catch (e) {
      setJsonError(s.jsonInvalid((e as Error).message));
    }
  };
  const addStep = () => {
    let n = steps.length + 1;
    while (steps.some((st) => st.id === `${kind}${n}`)) n++;
    fromGraph([...steps, newStep(kind, `${kind}${n}`)]);
  };

  const problems = problemsByStep(save.error, steps);
  const nameError = save.error instanceof ApiError ? save.error.fieldMessage('name') : undefined;
  const hostsError = save.error instanceof ApiError ? save.error.fieldMessage('allowedHosts') : undefined;
  const stepProblems = Object.entries(problems.byStep);

  return (
    <form
      className="ap-stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (jsonError) return;
        setSaved(false);
        save.mutate(
          { name, description, steps, allowedHosts: hosts.split(',').map((h) => h.trim()).filter(Boolean) },
          {
            onSuccess: (w) => {
              setSaved(true);
              onSaved?.(w);
            },
          },
        );
      }}
    >
      <div className="wf-meta">
        <Field label={s.name} value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} error={nameError} />
        <Field label={s.descriptionField} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
        <Field label={s.allowedHosts} value={hosts} onChange={(e) => setHosts(e.target.value)} hint={s.allowedHostsHint} error={hostsError} />
      </div>
      <div className="wf-editor">
        <section className="wf-editor__graph" aria-label={s.graph}>
          <div className="wf-toolbar">
            <label htmlFor={kindId}>{s.newStepKind}</label>
            <select id={kindId} className="ap-select" value={kind} onChange={(e) => setKind(e.target.value as WorkflowStep['kind'])}>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
            <Button onClick={addStep} disabled={readOnly}>
              <Plus aria-hidden size={16} />
              {s.addStep}
            </Button>
          </div>
          <p className="ap-field__hint">{s.graphHint}</p>
          <Suspense fallback={<Loading label={s.graphLoading} />}>
            <Graph steps={steps} errors={problems.byStep} onChange={fromGraph} readOnly={readOnly} />
          </Suspense>
        </section>
        <div className="wf-editor__json">
          <TextArea label={s.json} hint={s.jsonHint} className="ap-code-input wf-json" value={text} readOnly={readOnly} onChange={(e) => fromText(e.target.value)} error={jsonError ?? undefined} spellCheck={false} rows={24} />
        </div>
      </div>
      {stepProblems.length || problems.other.length ? (
        <div className="ap-state--error wf-problems" role="alert">
          <p>{s.problems}</p>
          <ul>
            {stepProblems.flatMap(([id, messages]) => messages.map((m) => <li key={`${id}${m}`}>{s.stepProblem(id, m)}</li>))}
            {problems.other.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : (
        <ErrorText error={save.error instanceof ApiError && save.error.status === 400 ? null : save.error} />
      )}
      <div className="ap-actions">
        {saved ? (
          <span role="status" className="ap-muted">
            {s.saved}
          </span>
        ) : null}
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!!jsonError || readOnly}>
          {s.save}
        </Button>
      </div>
    </form>
  );
}
