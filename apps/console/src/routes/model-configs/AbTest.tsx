import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { fieldErrors } from '../../lib/errors';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useAbTest, useKeepEvaluator, useKeptEvaluators, usePromoteAbTest, useSaveAbTest, type AbTest as Test, type AbTestArm, type AbTestInput, type KeptEvaluator } from './queries';
import { s } from './strings';

const GOALS = ['rating', 'thumbs_up_rate', 'cost_per_conversation', 'evaluator_score'] as const;
const DEFAULT_EFFECT: Record<string, string> = { rating: '0.3', thumbs_up_rate: '0.05', cost_per_conversation: '0.001', evaluator_score: '0.05' };

/** A figure in the goal's own unit: stars, a share as a percentage, US dollars, a score. */
function formatter(goal: string, signed = false): (n: number) => string {
  const sign = (n: number, text: string) => (signed && n > 0 ? `+${text}` : text);
  if (goal === 'thumbs_up_rate' || goal === 'evaluator_score') return (n) => sign(n, `${(n * 100).toFixed(1)}%`);
  if (goal === 'cost_per_conversation') return (n) => sign(n, `$${n.toFixed(4)}`);
  return (n) => sign(n, n.toFixed(2));
}

/** Keeps an evaluator for the test: the words a good answer holds (a judge or a pattern can be kept through the API). */
function KeepEvaluator({ applicationId, onKept }: { applicationId: string; onKept: (id: string) => void }) {
  const keep = useKeepEvaluator(applicationId);
  const form = useForm<{ name: string; words: string }>({ defaultValues: { name: '', words: '' } });
  const FIELDS = ['name', 'values'] as const;
  const submit = form.handleSubmit((v) => {
    const values = v.words.split(',').map((w) => w.trim()).filter(Boolean);
    keep.mutate({ name: v.name.trim(), values }, {
      onSuccess: (kept) => {
        form.reset();
        onKept(kept.id);
      },
    });
  });
  const errors = keep.error ? fieldErrors(keep.error, FIELDS) : {};
  return (
    <div className="ap-stack" role="group" aria-labelledby="ab-keep-evaluator">
      <h4 id="ab-keep-evaluator">{s.ab.keepTitle}</h4>
      <div className="ap-mc-grid">
        <Field label={s.ab.keepName} error={errors.name} {...form.register('name')} />
        <Field label={s.ab.keepWords} hint={s.ab.keepWordsHint} error={errors.values} {...form.register('words')} />
      </div>
      {keep.error && !Object.keys(errors).length ? <ErrorText error={keep.error} /> : null}
      <div className="ap-actions">
        <Button type="button" busy={keep.isPending} onClick={() => void submit()}>
          {s.ab.keep}
        </Button>
      </div>
    </div>
  );
}

interface FormValues {
  goal: string;
  minimumEffect: string;
  significance: string;
  autoPromote: boolean;
  guardErrors: boolean;
  guardCost: boolean;
  evaluatorId: string;
  sampleRate: string;
  samplesPerHour: string;
}

function Settings({ configId, applicationId, test, evaluators }: { configId: string; applicationId: string | undefined; test: Test | null; evaluators: KeptEvaluator[] }) {
  const save = useSaveAbTest(configId);
  const form = useForm<FormValues>({
    defaultValues: {
      goal: test?.goal ?? 'rating',
      minimumEffect: String(test?.minimumEffect ?? DEFAULT_EFFECT.rating),
      significance: String(test?.significance ?? 0.05),
      autoPromote: test?.autoPromote ?? false,
      guardErrors: test?.guardrails?.includes('error_rate') ?? false,
      guardCost: test?.guardrails?.includes('cost') ?? false,
      evaluatorId: test?.evaluatorId ?? evaluators[0]?.id ?? '',
      sampleRate: String(test?.sampleRate ?? 0.2),
      samplesPerHour: String(test?.samplesPerHour ?? 60),
    },
  });
  const goal = form.watch('goal');
  const FIELDS = ['goal', 'minimumEffect', 'significance', 'evaluatorId', 'sampleRate', 'samplesPerHour'] as const;
  const scored = goal === 'evaluator_score';
  const submit = form.handleSubmit((v) => {
    const body: AbTestInput = {
      goal: v.goal as AbTestInput['goal'],
      minimumEffect: Number(v.minimumEffect),
      significance: Number(v.significance),
      autoPromote: v.autoPromote,
      guardrails: [...(v.guardErrors ? (['error_rate'] as const) : []), ...(v.guardCost ? (['cost'] as const) : [])],
      ...(v.goal === 'evaluator_score' ? { evaluatorId: v.evaluatorId, sampleRate: Number(v.sampleRate), samplesPerHour: Number(v.samplesPerHour) } : {}),
    };
    save.mutate(body, {
      onSuccess: (saved) => form.reset({ ...v, minimumEffect: String(saved.minimumEffect) }),
      onError: (error) => {
        for (const [field, message] of Object.entries(fieldErrors(error, FIELDS))) form.setError(field as 'goal', { message: message as string });
      },
    });
  });
  const unplaced = save.error && !Object.keys(fieldErrors(save.error, FIELDS)).length ? save.error : null;
  const goalField = form.register('goal');
  return (
    <form className="ap-stack" noValidate onSubmit={submit} aria-labelledby="mc-ab-settings">
      <h3 id="mc-ab-settings">{s.ab.settingsTitle}</h3>
      <div className="ap-mc-grid">
        <div className="ap-field">
          <label htmlFor="ab-goal">{s.ab.goal}</label>
          <select
            id="ab-goal"
            className="ap-select"
            {...goalField}
            onChange={(e) => {
              void goalField.onChange(e);
              if (!form.formState.dirtyFields.minimumEffect) form.setValue('minimumEffect', DEFAULT_EFFECT[e.target.value] ?? '');
            }}
          >
            {(test?.goal && !GOALS.includes(test.goal as (typeof GOALS)[number]) ? [...GOALS, test.goal] : GOALS).map((g) => (
              <option key={g} value={g}>
                {s.ab.goals[g]}
              </option>
            ))}
          </select>
          {form.formState.errors.goal ? <p className="ap-field__error" role="alert">{form.formState.errors.goal.message}</p> : null}
        </div>
        <Field label={s.ab.minimumEffect} inputMode="decimal" hint={s.ab.minimumEffectHint[goal]} error={form.formState.errors.minimumEffect?.message} {...form.register('minimumEffect')} />
        <div className="ap-field">
          <label htmlFor="ab-significance">{s.ab.significance}</label>
          <select id="ab-significance" className="ap-select" {...form.register('significance')}>
            {s.ab.significances.map(([value, words]) => (
              <option key={value} value={String(value)}>
                {words}
              </option>
            ))}
          </select>
        </div>
      </div>
      {scored ? (
        <div className="ap-mc-grid">
          <div className="ap-field">
            <label htmlFor="ab-evaluator">{s.ab.evaluator}</label>
            <select id="ab-evaluator" className="ap-select" aria-invalid={form.formState.errors.evaluatorId ? true : undefined} {...form.register('evaluatorId')} value={form.watch('evaluatorId')}>
              {evaluators.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name}
                </option>
              ))}
            </select>
            {evaluators.length ? null : <p className="ap-field__hint">{s.ab.noEvaluators}</p>}
            {form.formState.errors.evaluatorId ? <p className="ap-field__error" role="alert">{form.formState.errors.evaluatorId.message}</p> : null}
          </div>
          <Field label={s.ab.sampleRate} inputMode="decimal" hint={s.ab.sampleRateHint} error={form.formState.errors.sampleRate?.message} {...form.register('sampleRate')} />
          <Field label={s.ab.samplesPerHour} inputMode="numeric" hint={s.ab.samplesPerHourHint} error={form.formState.errors.samplesPerHour?.message} {...form.register('samplesPerHour')} />
        </div>
      ) : null}
      {scored && applicationId ? <KeepEvaluator applicationId={applicationId} onKept={(id) => form.setValue('evaluatorId', id)} /> : null}
      <label className="ap-mc-check">
        <input type="checkbox" {...form.register('autoPromote')} />
        <span>{s.ab.autoPromote}</span>
      </label>
      <label className="ap-mc-check">
        <input type="checkbox" {...form.register('guardErrors')} />
        <span>{s.ab.guardErrors}</span>
      </label>
      <label className="ap-mc-check">
        <input type="checkbox" {...form.register('guardCost')} />
        <span>{s.ab.guardCost}</span>
      </label>
      {test ? <p className="ap-muted">{s.ab.restartNote}</p> : null}
      <ErrorText error={unplaced} />
      {save.isSuccess && !form.formState.isDirty ? (
        <p className="ap-notice" role="status">
          {s.ab.saved}
        </p>
      ) : null}
      <div className="ap-actions">
        <Button type="submit" variant="primary" busy={save.isPending}>
          {test ? s.ab.save : s.ab.start}
        </Button>
      </div>
    </form>
  );
}

function Decision({ configId, test, evaluators }: { configId: string; test: Test; evaluators: KeptEvaluator[] }) {
  const promote = usePromoteAbTest(configId);
  const arms = test.arms ?? [];
  const labelOf = (arm: string | null | undefined) => {
    const found = arms.find((a) => a.arm === arm);
    return found ? (found.isControl ? s.ab.control(found.label ?? '') : (found.label ?? '')) : '';
  };
  const value = formatter(test.goal ?? 'rating');
  const difference = formatter(test.goal ?? 'rating', true);
  const winner = labelOf(test.winner);
  let summary;
  if (test.status === 'promoted') summary = <p role="status">{s.ab.promoted(winner)}</p>;
  else if (test.decision === 'winner')
    summary = (
      <>
        <p role="status" className="ap-strong">
          {s.ab.winner(winner)}
        </p>
        <p className="ap-muted">{s.ab.winnerBody}</p>
        {test.status === 'winner' ? (
          <div className="ap-actions">
            <Button variant="primary" busy={promote.isPending} onClick={() => promote.mutate()}>
              {s.ab.promote(winner)}
            </Button>
          </div>
        ) : null}
        <ErrorText error={promote.error} />
      </>
    );
  else if (test.decision === 'no_difference')
    summary = (
      <>
        <p role="status" className="ap-strong">
          {s.ab.noDifference}
        </p>
        <p className="ap-muted">{s.ab.noDifferenceBody(value(test.minimumEffect ?? 0))}</p>
      </>
    );
  else summary = <p role="status">{s.ab.running(test.expectedObservations)}</p>;
  const range = (i: { estimate?: number; low?: number; high?: number } | null | undefined, f: (n: number) => string) =>
    i ? s.ab.range(f(i.estimate ?? 0), f(i.low ?? 0), f(i.high ?? 0)) : s.ab.notYet;
  return (
    <div className="ap-stack">
      <h3>{s.ab.decisionTitle}</h3>
      {summary}
      {test.startedAt ? <p className="ap-muted">{s.ab.startedAt(formatDateTime(test.startedAt))}</p> : null}
      {test.goal === 'evaluator_score' ? (
        <p className="ap-muted">{s.ab.sampling(evaluators.find((e) => e.id === test.evaluatorId)?.name ?? s.ab.deletedEvaluator, Math.round((test.sampleRate ?? 0) * 100), test.samplesPerHour ?? 0)}</p>
      ) : null}
      <DataTable<AbTestArm>
        caption={s.ab.armsCaption}
        rows={arms}
        rowKey={(a) => a.arm ?? ''}
        columns={[
          { header: s.ab.columns.arm, rowHeader: true, cell: (a) => (a.isControl ? s.ab.control(a.label ?? '') : a.label) },
          { header: test.goal === 'evaluator_score' ? s.ab.columns.scored : s.ab.columns.counted, cell: (a) => formatNumber(a.observations ?? 0) },
          { header: s.ab.columns.estimate, cell: (a) => range(a.estimate, value) },
          { header: s.ab.columns.difference, cell: (a) => (a.isControl ? s.ab.baseline : range(a.difference, difference)) },
          {
            header: s.ab.columns.verdict,
            cell: (a) => (a.rolledBack ? s.ab.rolledBack[a.rolledBack] : a.isControl ? s.ab.baseline : s.ab.verdicts[a.difference?.verdict ?? 'undecided']),
          },
        ]}
      />
    </div>
  );
}

/** The config's A/B test: its goal and settings, and the decision with each arm's estimate and range. */
export function AbTest({ configId, applicationId }: { configId: string; applicationId: string | undefined }) {
  const test = useAbTest(configId);
  const kept = useKeptEvaluators(applicationId);
  const evaluators = kept.data ?? [];
  let body;
  if (test.isPending || (applicationId && kept.isPending)) body = <Loading />;
  else if (test.isError) body = <ErrorState error={test.error} onRetry={() => void test.refetch()} />;
  else
    body = (
      <>
        {test.data ? <Decision configId={configId} test={test.data} evaluators={evaluators} /> : <EmptyState title={s.ab.none}>{s.ab.noneBody}</EmptyState>}
        <Settings key={test.data?.id ?? 'new'} configId={configId} applicationId={applicationId} test={test.data} evaluators={evaluators} />
      </>
    );
  return (
    <section className="ap-card ap-stack" aria-labelledby="mc-ab">
      <h2 id="mc-ab">{s.ab.title}</h2>
      <p className="ap-muted">{s.ab.intro}</p>
      {body}
    </section>
  );
}
