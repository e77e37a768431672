import { useEffect, useState } from 'react';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { useRetrievalSettings, useSaveRetrievalSettings, type SearchMode } from '../../components/knowledge/queries';
import { s } from '../../components/knowledge/strings';

/** The application's retrieval settings: search mode, how many passages, the lowest score, the reranker. */
export function RetrievalSettingsCard({ applicationId }: { applicationId?: string }) {
  const settings = useRetrievalSettings(applicationId);
  const save = useSaveRetrievalSettings(applicationId);
  const [mode, setMode] = useState<SearchMode | ''>('');
  const [topK, setTopK] = useState('8');
  const [threshold, setThreshold] = useState('');
  const [rerank, setRerank] = useState(false);

  useEffect(() => {
    if (!settings.data) return;
    setMode((settings.data.mode as SearchMode | null) ?? '');
    setTopK(String(settings.data.topK ?? 8));
    setThreshold(settings.data.scoreThreshold == null ? '' : String(settings.data.scoreThreshold));
    setRerank(!!settings.data.rerank);
  }, [settings.data]);

  if (settings.isPending) return <Loading />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <section className="ap-card ap-stack" aria-labelledby="kn-settings">
      <div>
        <h2 id="kn-settings">{s.settingsTitle}</h2>
        <p className="ap-muted">{s.settingsDescription}</p>
      </div>
      <form
        className="ap-stack"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate({ mode: mode === '' ? null : mode, topK: Number(topK), scoreThreshold: threshold.trim() === '' ? null : Number(threshold), rerank });
        }}
      >
        <div className="ap-field">
          <label htmlFor="kn-settings-mode">{s.settingsMode}</label>
          <select id="kn-settings-mode" value={mode} onChange={(e) => setMode(e.target.value as SearchMode | '')}>
            <option value="">{s.settingsModeApp}</option>
            {(Object.keys(s.modes) as SearchMode[]).map((m) => (
              <option key={m} value={m}>
                {s.modes[m]}
              </option>
            ))}
          </select>
        </div>
        <Field label={s.topK} type="number" min={1} max={20} value={topK} onChange={(e) => setTopK(e.target.value)} />
        <Field label={s.threshold} type="number" min={0} max={1} step={0.01} value={threshold} hint={s.thresholdHint} onChange={(e) => setThreshold(e.target.value)} />
        <label className="ap-row">
          <input type="checkbox" checked={rerank} disabled={!settings.data.rerankerAvailable} onChange={(e) => setRerank(e.target.checked)} /> {s.rerank}
        </label>
        {settings.data.rerankerAvailable ? null : <p className="ap-muted">{s.rerankUnavailable}</p>}
        <div>
          <Button type="submit" variant="primary" busy={save.isPending}>
            {s.saveSettings}
          </Button>
        </div>
        {save.isSuccess ? <p role="status">{s.settingsSaved}</p> : null}
        <ErrorText error={save.error} />
      </form>
    </section>
  );
}
