import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Field, TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading, describeError } from '../../components/States';
import {
  downloadResults,
  useAddItem,
  useCancelRun,
  useCompare,
  useConfigVersions,
  useCreateDataset,
  useDataset,
  useDatasets,
  useImport,
  useRemoveItem,
  useResults,
  useRuns,
  useStartRun,
  type Evaluator,
  type Item,
  type Result,
  type Run,
  type Target,
} from './queries';
import { pct, s } from './strings';

/** An application's Evaluate tab: datasets and their questions, runs against versions with checks, results, comparison. */
export default function Evaluations({ applicationId }: { applicationId: string }) {
  const datasets = useDatasets(applicationId);
  const [chosen, setChosen] = useState<string | undefined>();
  useEffect(() => {
    if (!chosen && datasets.data?.length) setChosen(datasets.data[0]!.id);
  }, [chosen, datasets.data]);

  if (datasets.isPending) return <Loading />;
  if (datasets.isError) return <ErrorState error={datasets.error} onRetry={() => void datasets.refetch()} />;
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      {datasets.data.length === 0 ? <EmptyState title={s.empty}>{s.emptyBody}</EmptyState> : null}
      <section className="ap-card ap-stack" aria-labelledby="ev-datasets">
        <h2 id="ev-datasets">{s.datasets}</h2>
        {datasets.data.length ? (
          <div className="ap-field">
            <label htmlFor="ev-dataset">{s.chooseDataset}</label>
            <select id="ev-dataset" className="ap-select" value={chosen ?? ''} onChange={(e) => setChosen(e.target.value)}>
              {datasets.data.map((d) => (
                <option key={d.id} value={d.id}>
                  {`${d.name} (${s.questions(d.itemCount ?? 0)}, ${s.version(d.version ?? 1)})`}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <NewDataset applicationId={applicationId} onCreated={(id) => setChosen(id)} />
      </section>
      {chosen ? <DatasetItems key={chosen} applicationId={applicationId} datasetId={chosen} /> : null}
      {chosen ? <StartRun key={`r-${chosen}`} applicationId={applicationId} datasetId={chosen} /> : null}
      <Runs applicationId={applicationId} />
    </>
  );
}

function NewDataset({ applicationId, onCreated }: { applicationId: string; onCreated: (id: string) => void }) {
  const create = useCreateDataset(applicationId);
  const [name, setName] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(name, {
      onSuccess: (d) => {
        setName('');
        onCreated(d.id!);
      },
    });
  };
  return (
    <form className="ap-inline-form" onSubmit={submit}>
      <Field label={s.datasetName} value={name} onChange={(e) => setName(e.target.value)} required maxLength={120} error={create.error ? describeError(create.error).message : undefined} />
      <Button type="submit" busy={create.isPending}>
        {s.create}
      </Button>
    </form>
  );
}

function DatasetItems({ applicationId, datasetId }: { applicationId: string; datasetId: string }) {
  const dataset = useDataset(applicationId, datasetId);
  const add = useAddItem(applicationId, datasetId);
  const remove = useRemoveItem(applicationId, datasetId);
  const upload = useImport(applicationId, datasetId);
  const [question, setQuestion] = useState('');
  const [expected, setExpected] = useState('');
  const [tags, setTags] = useState('');
  const [importNote, setImportNote] = useState<{ text: string; failed: boolean } | null>(null);
  const file = useRef<HTMLInputElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { message: question, expected, tags: tags.split(',').map((t) => t.trim()).filter(Boolean) },
      {
        onSuccess: () => {
          setQuestion('');
          setExpected('');
          setTags('');
        },
      },
    );
  };
  const sendFile = async (f: File) => {
    try {
      const result = await upload.mutateAsync(f);
      const note = { text: s.imported(result.added?.length ?? 0), failed: false };
      setImportNote(note);
    } catch (error) {
      const { title, message } = describeError(error);
      const note = { text: s.importFailed(message || title), failed: true };
      setImportNote(note);
    }
  };

  return (
    <section className="ap-card ap-stack" aria-labelledby="ev-items">
      <h2 id="ev-items">{s.items}</h2>
      {dataset.isPending ? <Loading /> : dataset.isError ? <ErrorState error={dataset.error} /> : dataset.data.items?.length ? (
        <DataTable<Item>
          aria-label={s.items}
          columns={[
            { header: s.columns.question, cell: (i) => i.input?.message, rowHeader: true },
            { header: s.columns.expected, cell: (i) => i.expected ?? '' },
            { header: s.columns.tags, cell: (i) => (i.tags ?? []).join(', ') },
          ]}
          rows={dataset.data.items}
          rowKey={(i) => i.id!}
          actions={(i) => (
            <Button variant="ghost" aria-label={s.remove(i.input?.message ?? '')} onClick={() => remove.mutate(i.id!)}>
              ×
            </Button>
          )}
        />
      ) : (
        <p className="ap-muted">{s.noItems}</p>
      )}
      <form className="ap-stack" onSubmit={submit} aria-label={s.addItem}>
        <h3>{s.addItem}</h3>
        <TextArea label={s.question} value={question} onChange={(e) => setQuestion(e.target.value)} required rows={2} />
        <TextArea label={s.expected} value={expected} onChange={(e) => setExpected(e.target.value)} rows={2} />
        <Field label={s.tags} value={tags} onChange={(e) => setTags(e.target.value)} />
        {add.error ? <ErrorText error={add.error} /> : null}
        <div>
          <Button type="submit" busy={add.isPending}>
            {s.add}
          </Button>
        </div>
      </form>
      <div className="ap-field">
        <label htmlFor="ev-import">{s.importFile}</label>
        <input
          id="ev-import"
          ref={file}
          type="file"
          accept=".csv,.jsonl,.json,text/csv"
          aria-describedby="ev-import-hint"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) void sendFile(f);
          }}
        />
        <p className="ap-field__hint" id="ev-import-hint">
          {upload.isPending ? s.importing : s.importHint}
        </p>
        <p className={importNote?.failed ? 'ap-error-text' : 'ap-muted'} role="status" aria-live="polite">
          {importNote?.text ?? ''}
        </p>
      </div>
    </section>
  );
}

const JUDGE_MODELS: Array<{ provider: 'provider_a' | 'provider_b' | 'provider_c' | 'provider_d'; model: string; label: string }> = [
  { provider: 'provider_a', model: 'gpt-4o-mini', label: 'OpenAI GPT-4o mini' },
  { provider: 'provider_b', model: 'claude-3-5-sonnet-20241022', label: 'Anthropic Claude 3.5 Sonnet' },
  { provider: 'provider_c', model: 'gemini-2.0-flash', label: 'Google Gemini 2.0 Flash' },
];

function StartRun({ applicationId, datasetId }: { applicationId: string; datasetId: string }) {
  const versions = useConfigVersions(applicationId);
  const start = useStartRun(applicationId);
  const [targets, setTargets] = useState<string[]>([]);
  const [exact, setExact] = useState(true);
  const [contains, setContains] = useState('');
  const [pattern, setPattern] = useState('');
  const [json, setJson] = useState(false);
  const [rubric, setRubric] = useState('');
  const [judgeModel, setJudgeModel] = useState(0);
  const [threshold, setThreshold] = useState('');
  const [problem, setProblem] = useState('');

  const toggle = (id: string) => setTargets((all) => (all.includes(id) ? all.filter((t) => t !== id) : [...all, id]));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const chosenTargets: Target[] = targets.map((t) => (t === 'draft' ? { kind: 'studio_draft' } : { kind: 'config_version', versionId: t }));
    const evaluators: Evaluator[] = [];
    if (exact) evaluators.push({ type: 'exact' });
    const words = contains.split(',').map((w) => w.trim()).filter(Boolean);
    if (words.length) evaluators.push({ type: 'contains', mode: 'all', values: words });
    if (pattern.trim()) evaluators.push({ type: 'regex', pattern });
    if (json) evaluators.push({ type: 'json' });
    if (rubric.trim()) {
      const m = JUDGE_MODELS[judgeModel]!;
      evaluators.push({ type: 'judge', provider: m.provider, model: m.model, rubric, scaleMin: 1, scaleMax: 5 });
    }
    if (!chosenTargets.length) return setProblem(s.noTargets);
    if (!evaluators.length) return setProblem(s.noChecks);
    setProblem('');
    const share = threshold.trim() === '' ? null : Number(threshold) / 100;
    start.mutate({ datasetId, targets: chosenTargets, evaluators, passThreshold: share });
  };

  return (
    <section className="ap-card ap-stack" aria-labelledby="ev-run">
      <h2 id="ev-run">{s.runTitle}</h2>
      <p className="ap-muted">{s.runHint}</p>
      <form className="ap-stack" onSubmit={submit}>
        <fieldset className="ap-stack">
          <legend>{s.targets}</legend>
          <label>
            <input type="checkbox" checked={targets.includes('draft')} onChange={() => toggle('draft')} /> {s.draft}
          </label>
          {(versions.data ?? []).map((v) => (
            <label key={v.id}>
              <input type="checkbox" checked={targets.includes(v.id)} onChange={() => toggle(v.id)} /> {s.versionOf(v.config, v.label)}
            </label>
          ))}
        </fieldset>
        <fieldset className="ap-stack">
          <legend>{s.checks}</legend>
          <label>
            <input type="checkbox" checked={exact} onChange={(e) => setExact(e.target.checked)} /> {s.exact}
          </label>
          <label>
            <input type="checkbox" checked={json} onChange={(e) => setJson(e.target.checked)} /> {s.json}
          </label>
          <Field label={s.contains} value={contains} onChange={(e) => setContains(e.target.value)} />
          <Field label={s.pattern} value={pattern} onChange={(e) => setPattern(e.target.value)} />
          <TextArea label={s.judge} value={rubric} onChange={(e) => setRubric(e.target.value)} rows={2} />
          <div className="ap-field">
            <label htmlFor="ev-judge">{s.judgeModel}</label>
            <select id="ev-judge" className="ap-select" value={judgeModel} onChange={(e) => setJudgeModel(Number(e.target.value))}>
              {JUDGE_MODELS.map((m, i) => (
                <option key={m.model} value={i}>
                  {m.label}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
        <Field label={s.threshold} type="number" min={0} max={100} value={threshold} onChange={(e) => setThreshold(e.target.value)} />
        {problem ? <p className="ap-error-text" role="alert">{problem}</p> : null}
        {start.error ? <ErrorText error={start.error} /> : null}
        <div>
          <Button type="submit" variant="primary" busy={start.isPending}>
            {s.start}
          </Button>
        </div>
      </form>
    </section>
  );
}

function Runs({ applicationId }: { applicationId: string }) {
  const runs = useRuns(applicationId);
  const cancel = useCancelRun(applicationId);
  const [shown, setShown] = useState<string | undefined>();
  const run = runs.data?.find((r) => r.id === shown) ?? runs.data?.[0];
  return (
    <section className="ap-card ap-stack" aria-labelledby="ev-runs">
      <h2 id="ev-runs">{s.runs}</h2>
      {runs.isPending ? <Loading /> : runs.isError ? <ErrorState error={runs.error} /> : runs.data.length === 0 ? (
        <p className="ap-muted">{s.noRuns}</p>
      ) : (
        <>
          <DataTable<Run>
            aria-label={s.runs}
            columns={[
              { header: s.columns.run, cell: (r) => r.name, rowHeader: true },
              { header: s.columns.status, cell: (r) => `${s.status[r.status ?? 'running'] ?? r.status}${r.verdict && s.verdict[r.verdict] ? ` · ${s.verdict[r.verdict]}` : ''}` },
              { header: s.columns.progress, cell: (r) => s.progress(r.finished ?? 0, r.total ?? 0) },
              { header: s.columns.result, cell: (r) => (r.targets ?? []).map((t) => `${t.label}: ${t.passRate === null || t.passRate === undefined ? '–' : pct(t.passRate)}`).join(' · ') },
            ]}
            rows={runs.data}
            rowKey={(r) => r.id!}
            actions={(r) => (
              <>
                <Button variant="ghost" onClick={() => setShown(r.id)} aria-label={s.show(r.name ?? '')}>
                  {s.show('')}
                </Button>
                {r.status === 'running' ? (
                  <Button variant="ghost" onClick={() => cancel.mutate(r.id!)}>
                    {s.cancel}
                  </Button>
                ) : null}
              </>
            )}
          />
          {run ? <RunResults applicationId={applicationId} run={run} /> : null}
          <Compare applicationId={applicationId} runs={runs.data} />
        </>
      )}
    </section>
  );
}

function RunResults({ applicationId, run }: { applicationId: string; run: Run }) {
  const results = useResults(applicationId, run);
  const label = (i: number) => run.targets?.[i]?.label ?? '';
  const [exportError, setExportError] = useState<unknown>(null);
  const exportAs = (format: 'csv' | 'json') => {
    setExportError(null);
    downloadResults(applicationId, run.id!, format).catch(setExportError);
  };
  return (
    <div className="ap-stack">
      <h3>{s.results(run.name ?? '')}</h3>
      <div className="ap-actions">
        <Button onClick={() => exportAs('csv')}>{s.exportCsv}</Button>
        <Button onClick={() => exportAs('json')}>{s.exportJson}</Button>
      </div>
      <ErrorText error={exportError} />
      <ul className="ap-stack" aria-label={s.columns.result}>
        {(run.targets ?? []).map((t) => (
          <li key={t.index}>
            <strong>{t.label}</strong>: {s.passRate(t.passRate, t.passRateInterval?.low, t.passRateInterval?.high)}
          </li>
        ))}
      </ul>
      {results.isPending ? <Loading /> : results.isError ? <ErrorState error={results.error} /> : (
        <DataTable<Result>
          aria-label={s.results(run.name ?? '')}
          columns={[
            { header: s.columns.question, cell: (r) => r.input?.message ?? '', rowHeader: true },
            { header: s.columns.target, cell: (r) => label(r.target ?? 0) },
            { header: s.columns.answer, cell: (r) => r.answer ?? r.error ?? '' },
            { header: s.columns.verdict, cell: (r) => (r.state === 'done' || r.state === 'failed' ? (r.passed ? s.passed : s.failed) : s.notAnswered) },
            { header: s.columns.why, cell: (r) => (r.scores ?? []).map((x) => `${x.evaluator}: ${x.reason}`).join(' · ') },
          ]}
          rows={results.data}
          rowKey={(r) => `${r.itemId}-${r.target}`}
        />
      )}
    </div>
  );
}

function Compare({ applicationId, runs }: { applicationId: string; runs: Run[] }) {
  const compare = useCompare(applicationId);
  const options = runs.flatMap((r) => (r.targets ?? []).map((t) => ({ value: `${r.id}:${t.index}`, label: `${r.name} · ${t.label}` })));
  const [a, setA] = useState(options[0]?.value ?? '');
  const [b, setB] = useState(options[1]?.value ?? options[0]?.value ?? '');
  if (options.length < 2) return null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const [runA, targetA] = a.split(':');
    const [runB, targetB] = b.split(':');
    compare.mutate({ runA: runA!, targetA: Number(targetA), runB: runB!, targetB: Number(targetB) });
  };
  return (
    <form className="ap-stack" onSubmit={submit} aria-labelledby="ev-compare">
      <h3 id="ev-compare">{s.compare}</h3>
      {(
        [
          ['ev-a', s.compareA, a, setA],
          ['ev-b', s.compareB, b, setB],
        ] as const
      ).map(([id, text, value, set]) => (
        <div className="ap-field" key={id}>
          <label htmlFor={id}>{text}</label>
          <select id={id} className="ap-select" value={value} onChange={(e) => set(e.target.value)}>
            {options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      <div>
        <Button type="submit" busy={compare.isPending}>
          {s.compareGo}
        </Button>
      </div>
      {compare.error ? <ErrorText error={compare.error} /> : null}
      {compare.data ? (
        compare.data.changed?.length ? (
          <>
            <p>{s.changed(compare.data.changed.length, compare.data.compared ?? 0)}</p>
            <ul className="ap-stack" aria-label={s.changed(compare.data.changed.length, compare.data.compared ?? 0)}>
              {compare.data.changed.map((c) => (
                <li key={c.itemId}>
                  <strong>{c.input?.message}</strong>: {c.b?.passed ? s.becamePass : s.becameFail} ({c.b?.answer ?? ''})
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>{s.noChange}</p>
        )
      ) : null}
    </form>
  );
}
