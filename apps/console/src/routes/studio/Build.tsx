import { Rocket, Save } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useBlocker } from 'react-router';
import { Button } from '../../components/Button';
import { CodeEditor } from '../../components/CodeEditor';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { Field, TextArea } from '../../components/Field';
import { PageHeader } from '../../components/PageHeader';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { t } from '../../lib/strings';
import { DebugChat } from './DebugChat';
import { useModelCatalogue } from '../../lib/model-catalogue';
import { useAgentSettings, useApplication, useDraft, useKnowledgeCount, usePublish, useSaveDraft, type StudioDraft } from './queries';
import { s } from './strings';
import { VersionsPanel } from './VersionsPanel';
import { OPTIONAL, placeholders, toConfig, toForm, type Form, type NumberField } from './build-form';

/**
 * The studio's Build screen for one application: instructions with variables, model and settings with their
 * ranges, knowledge and tools, opening message, where each live value comes from, Save draft, Publish with a
 * note, versions (compare, restore, A/B), beside a debug chat on the draft as it is on screen.
 */
export default function Build({ applicationId }: { applicationId: string }) {
  const draft = useDraft(applicationId);
  if (draft.isPending) return <Loading />;
  if (draft.isError) return <ErrorState error={draft.error} onRetry={() => void draft.refetch()} />;
  return <BuildForm key={applicationId} applicationId={applicationId} draft={draft.data} />;
}

function BuildForm({ applicationId, draft }: { applicationId: string; draft: StudioDraft }) {
  const application = useApplication(applicationId);
  const providers = useModelCatalogue(application.data ? (application.data.teamId ?? null) : undefined);
  const knowledge = useKnowledgeCount(applicationId);
  const agent = useAgentSettings(applicationId);
  const save = useSaveDraft(applicationId);
  const publish = usePublish(applicationId);
  const [saved, setSaved] = useState<Form>(() => toForm(draft.config!));
  const [form, setForm] = useState<Form>(saved);
  const [editorKey, setEditorKey] = useState(0);
  const [publishOpen, setPublishOpen] = useState(false);
  const [note, setNote] = useState('');
  const [notice, setNotice] = useState('');
  const config = useMemo(() => toConfig(form), [form]);
  const dirty = JSON.stringify(config) !== JSON.stringify(toConfig(saved));
  const variables = useMemo(() => placeholders(form.instructions), [form.instructions]);
  const provider = providers.data?.find((p) => p.id === form.provider);
  const model = provider?.models?.find((m) => m.id === form.modelId);
  const ranges = draft.ranges!;
  const limits: Record<NumberField, { min: number; max: number; step: number }> = {
    temperature: { min: ranges.temperature?.[form.provider]?.min ?? 0, max: ranges.temperature?.[form.provider]?.max ?? 2, step: 0.1 },
    maxTokens: { min: ranges.maxTokens!.min!, max: Math.min(ranges.maxTokens!.max!, model?.maxOutputTokens ?? ranges.maxTokens!.max!), step: 1 },
    topP: { min: ranges.topP!.min!, max: ranges.topP!.max!, step: 0.05 },
    frequencyPenalty: { min: ranges.frequencyPenalty!.min!, max: ranges.frequencyPenalty!.max!, step: 0.1 },
    presencePenalty: { min: ranges.presencePenalty!.min!, max: ranges.presencePenalty!.max!, step: 0.1 },
  };
  const labels: Record<NumberField, string> = { temperature: s.temperature, maxTokens: s.maxTokens, topP: s.topP, frequencyPenalty: s.frequencyPenalty, presencePenalty: s.presencePenalty };
  const rangeErrors = Object.fromEntries(
    (Object.keys(limits) as NumberField[]).flatMap((k) => {
      const text = form.settings[k].trim();
      if (text === '') return OPTIONAL.includes(k) ? [] : [[k, s.outOfRange(labels[k], limits[k].min, limits[k].max)]];
      const n = Number(text);
      return Number.isFinite(n) && n >= limits[k].min && n <= limits[k].max && (k !== 'maxTokens' || Number.isInteger(n)) ? [] : [[k, s.outOfRange(labels[k], limits[k].min, limits[k].max)]];
    }),
  ) as Partial<Record<NumberField, string>>;
  const invalid = Object.keys(rangeErrors).length > 0;
  const apiError = (field: string) => (save.error instanceof ApiError ? save.error.fieldMessage(field) : undefined);

  // Unsaved edits are not lost without a question: leaving the screen asks, and so does closing the tab.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const set = (change: Partial<Form>) => {
    setNotice('');
    setForm((f) => ({ ...f, ...change }));
  };
  const setSetting = (k: NumberField, v: string) => set({ settings: { ...form.settings, [k]: v } });
  const setResilience = (change: Partial<Form['resilience']>) => set({ resilience: { ...form.resilience, ...change } });
  const pairsError = (field: 'fallbacks' | 'balance') =>
    save.error instanceof ApiError ? (save.error.fieldMessage(`settings.resilience.${field}`) ?? [0, 1, 2].map((i) => (save.error as ApiError).fieldMessage(`settings.resilience.${field}.${i}`)).find(Boolean)) : undefined;

  async function saveDraft(): Promise<boolean> {
    if (invalid) return false;
    try {
      const view = await save.mutateAsync(config);
      const next = toForm(view.config!);
      setSaved(next);
      setForm(next);
      setNotice(s.saved);
      return true;
    } catch {
      return false;
    }
  }

  async function doPublish() {
    if (dirty && !(await saveDraft())) {
      setPublishOpen(false);
      return;
    }
    publish.mutate(note.trim(), {
      onSuccess: (v) => {
        setPublishOpen(false);
        setNote('');
        setNotice(s.published(v.number!));
      },
    });
  }

  function reloadFrom(view: StudioDraft) {
    const next = toForm(view.config!);
    setSaved(next);
    setForm(next);
    setEditorKey((k) => k + 1);
  }

  const live = draft.live!;
  const mode = application.data?.retrieval?.mode ?? 'hybrid';

  return (
    <>
      <PageHeader
        title={s.title}
        description={s.description}
        actions={
          <div className="ap-actions">
            <Button onClick={() => void saveDraft()} busy={save.isPending} disabled={!draft.canEdit || !dirty || invalid}>
              <Save aria-hidden size={16} />
              {s.saveDraft}
            </Button>
            <Button variant="primary" onClick={() => setPublishOpen(true)} disabled={!draft.canEdit || invalid}>
              <Rocket aria-hidden size={16} />
              {s.publish}
            </Button>
          </div>
        }
      />
      <p className="ap-studio-status" role="status">
        {notice || (dirty ? s.unsaved : draft.unpublishedChanges ? s.unpublished : s.upToDate)}
      </p>
      {draft.canEdit ? null : <p className="ap-notice">{s.readOnly}</p>}
      <ErrorText error={save.error} />
      <div className="ap-studio">
        <div className="ap-studio__editor">
          <section className="ap-card ap-studio-section" aria-labelledby="studio-instructions-title">
            <h2 id="studio-instructions-title" className="ap-side-title">
              {s.instructionsSection}
            </h2>
            <CodeEditor key={editorKey} id="studio-instructions" label={s.instructions} hint={s.instructionsHint} language="text" value={form.instructions} onChange={(text) => set({ instructions: text })} error={apiError('instructions')} />
            <fieldset className="ap-studio-fieldset">
              <legend>{s.variables}</legend>
              {variables.length ? (
                variables.map((name) => (
                  <Field
                    key={name}
                    label={s.variableValue(name)}
                    value={form.variables[name] ?? ''}
                    onChange={(e) => set({ variables: { ...form.variables, [name]: e.target.value } })}
                    error={apiError(`variables.${name}`)}
                  />
                ))
              ) : (
                <p className="ap-muted">{s.noVariables}</p>
              )}
            </fieldset>
          </section>

          <section className="ap-card ap-studio-section" aria-labelledby="studio-sources-title">
            <h2 id="studio-sources-title" className="ap-side-title">
              {s.sources}
            </h2>
            <p className="ap-muted">{s.sourcesIntro}</p>
            <dl className="ap-facts">
              <div className="ap-facts__row">
                <dt>{s.liveModel}</dt>
                <dd>
                  {live.provider} · {live.modelId} ({live.modelConfig ? s.fromConfig(live.modelConfig.name!) : s.origin[live.modelFrom!]})
                </dd>
              </div>
              <div className="ap-facts__row">
                <dt>{s.liveInstructions}</dt>
                <dd>
                  {live.systemPromptFrom === 'model_config' && live.modelConfig
                    ? s.fromConfig(live.modelConfig.name!)
                    : live.systemPromptFrom === 'prompt_template' && live.template
                      ? s.fromTemplate(live.template.name!)
                      : s.origin[live.systemPromptFrom!]}
                  {live.systemPrompt ? <span className="ap-block ap-muted ap-studio-clip">{live.systemPrompt}</span> : null}
                </dd>
              </div>
            </dl>
            {live.unusedTemplate ? <p className="ap-notice">{s.unusedTemplate(live.unusedTemplate.name!)}</p> : null}
            {live.abTest ? (
              <>
                <p className="ap-notice">{s.abRunning(live.abTest.defaultConfigPercent!)}</p>
                <ul className="ap-studio-list">
                  {live.abTest.versions!.map((v) => (
                    <li key={v.id}>{s.abArm(v.label!, v.trafficPercent!, s.origin[v.systemPromptFrom!] ?? '')}</li>
                  ))}
                </ul>
              </>
            ) : null}
            <p>{live.publishedVersion ? s.publishedAs(live.publishedVersion) : live.changedOutsideStudio ? s.changedOutside : draft.latestVersion ? '' : s.neverPublished}</p>
          </section>

          <section className="ap-card ap-studio-section" aria-labelledby="studio-model-title">
            <h2 id="studio-model-title" className="ap-side-title">
              {s.modelSection}
            </h2>
            <div className="ap-studio-grid">
              <div className="ap-field">
                <label htmlFor="studio-provider">{s.provider}</label>
                <select
                  id="studio-provider"
                  className="ap-select"
                  value={form.provider}
                  onChange={(e) => {
                    const next = providers.data?.find((p) => p.id === e.target.value);
                    set({ provider: e.target.value, modelId: next?.defaultModel ?? '', settings: { ...form.settings, maxTokens: String(Math.min(Number(form.settings.maxTokens) || 2048, next?.models?.find((m) => m.id === next.defaultModel)?.maxOutputTokens ?? 2048)) } });
                  }}
                >
                  {(providers.data ?? [{ id: form.provider }]).map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.id}
                    </option>
                  ))}
                </select>
              </div>
              {provider?.acceptsAnyModel ? (
                <Field label={s.modelId} value={form.modelId} onChange={(e) => set({ modelId: e.target.value })} error={apiError('modelId')} />
              ) : (
                <div className="ap-field">
                  <label htmlFor="studio-model">{s.modelId}</label>
                  <select id="studio-model" className="ap-select" value={form.modelId} onChange={(e) => set({ modelId: e.target.value })}>
                    {(provider?.models ?? [{ id: form.modelId }]).map((m) => (
                      <option key={m.id} value={m.id}>
                        {m.id}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              {(Object.keys(limits) as NumberField[]).map((k) => (
                <Field
                  key={k}
                  label={labels[k]}
                  type="number"
                  inputMode="decimal"
                  min={limits[k].min}
                  max={limits[k].max}
                  step={limits[k].step}
                  value={form.settings[k]}
                  onChange={(e) => setSetting(k, e.target.value)}
                  hint={OPTIONAL.includes(k) ? s.optionalRange(limits[k].min, limits[k].max) : s.range(limits[k].min, limits[k].max)}
                  error={rangeErrors[k] ?? apiError(`settings.${k}`)}
                />
              ))}
            </div>
            <fieldset className="ap-stack">
              <legend>{s.resilienceTitle}</legend>
              <p className="ap-muted">{s.resilienceHelp}</p>
              <div className="ap-studio-grid">
                <Field label={s.maxRetries} type="number" inputMode="numeric" min={0} max={5} step={1} hint={s.maxRetriesHint} value={form.resilience.maxRetries} onChange={(e) => setResilience({ maxRetries: e.target.value })} error={apiError('settings.resilience.retry.maxRetries')} />
                <Field label={s.baseDelayMs} type="number" inputMode="numeric" min={0} step={100} hint={s.baseDelayHint} value={form.resilience.baseDelayMs} onChange={(e) => setResilience({ baseDelayMs: e.target.value })} error={apiError('settings.resilience.retry.baseDelayMs')} />
                <Field label={s.maxDelayMs} type="number" inputMode="numeric" min={0} step={100} value={form.resilience.maxDelayMs} onChange={(e) => setResilience({ maxDelayMs: e.target.value })} error={apiError('settings.resilience.retry.maxDelayMs')} />
              </div>
              <TextArea label={s.balance} rows={3} spellCheck={false} hint={s.balanceHint} value={form.resilience.balance} onChange={(e) => setResilience({ balance: e.target.value })} error={pairsError('balance')} />
              <TextArea label={s.fallbacks} rows={3} spellCheck={false} hint={s.fallbacksHint} value={form.resilience.fallbacks} onChange={(e) => setResilience({ fallbacks: e.target.value })} error={pairsError('fallbacks')} />
            </fieldset>
          </section>

          <section className="ap-card ap-studio-section" aria-labelledby="studio-context-title">
            <h2 id="studio-context-title" className="ap-side-title">
              {s.knowledge} · {s.tools}
            </h2>
            <p>{knowledge.isSuccess ? s.knowledgeSummary(knowledge.data, mode) : <ErrorText error={knowledge.error} />}</p>
            <p>
              <Link to={`/knowledge?app=${applicationId}`}>{s.manageKnowledge}</Link>
            </p>
            <p>{agent.isSuccess ? s.toolsSummary(agent.data.enabledTools ?? [], agent.data.maxToolRounds) : <ErrorText error={agent.error} />}</p>
            <p>
              <Link to={`/tools?app=${applicationId}`}>{s.manageTools}</Link>
            </p>
          </section>

          <section className="ap-card ap-studio-section" aria-labelledby="studio-opening-title">
            <h2 id="studio-opening-title" className="ap-side-title">
              {s.opening}
            </h2>
            <TextArea label={s.openingMessage} rows={2} maxLength={500} value={form.openingMessage} onChange={(e) => set({ openingMessage: e.target.value })} hint={s.openingHint} error={apiError('openingMessage')} />
            <TextArea label={s.suggestedQuestions} rows={3} value={form.suggested} onChange={(e) => set({ suggested: e.target.value })} hint={s.suggestedHint} error={apiError('suggestedQuestions')} />
          </section>

          <VersionsPanel
            appId={applicationId}
            liveVersion={live.publishedVersion ?? null}
            dirty={dirty}
            canEdit={draft.canEdit ?? false}
            onNotice={setNotice}
            onRestored={reloadFrom}
          />
        </div>
        <DebugChat appId={applicationId} config={config} variables={variables} />
      </div>

      <Dialog open={publishOpen} onOpenChange={(open) => !open && setPublishOpen(false)} title={s.publishTitle} description={s.publishBody}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void doPublish();
          }}
        >
          {dirty ? <p className="ap-muted">{s.saveFirst}</p> : null}
          <TextArea label={s.note} rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} hint={s.noteHint} />
          <ErrorText error={publish.error} />
          <div className="ap-actions">
            <Button onClick={() => setPublishOpen(false)}>{t.cancel}</Button>
            <Button type="submit" variant="primary" busy={publish.isPending || save.isPending}>
              {s.publishConfirm}
            </Button>
          </div>
        </form>
      </Dialog>
      <ConfirmDialog
        open={blocker.state === 'blocked'}
        onOpenChange={(open) => !open && blocker.reset?.()}
        title={s.leaveTitle}
        description={s.leaveBody}
        confirmLabel={s.leaveConfirm}
        onConfirm={() => blocker.proceed?.()}
      />
    </>
  );
}
