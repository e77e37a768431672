import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../components/Button';
import { ErrorState, ErrorText, Loading } from '../../components/States';
import { useBases, useRetrievalSettings, useSaveRetrievalSettings } from '../../components/knowledge/queries';
import { s } from '../../components/knowledge/strings';

/** Which shared knowledge bases the application answers from, besides its own documents. */
export function UsedBases({ applicationId }: { applicationId?: string }) {
  const settings = useRetrievalSettings(applicationId);
  const bases = useBases();
  const save = useSaveRetrievalSettings(applicationId);
  const [chosen, setChosen] = useState<string[]>([]);

  useEffect(() => {
    if (settings.data) setChosen((settings.data.bases ?? []).map((b) => b.id!));
  }, [settings.data]);

  if (settings.isPending || bases.isPending) return <Loading />;
  if (settings.isError) return <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />;
  if (bases.isError) return <ErrorState error={bases.error} onRetry={() => void bases.refetch()} />;
  // A base in use that the user cannot open is still listed (by name), so saving never drops it unseen.
  const used = settings.data.bases ?? [];
  const options = [...bases.data, ...used.filter((u) => !bases.data.some((b) => b.id === u.id))];
  const toggle = (id: string, on: boolean) => setChosen((current) => (on ? [...current, id] : current.filter((x) => x !== id)));

  return (
    <section className="ap-card ap-stack" aria-labelledby="kn-bases">
      <div>
        <h2 id="kn-bases">{s.usedBasesTitle}</h2>
        <p className="ap-muted">{s.usedBasesDescription}</p>
      </div>
      {options.length === 0 ? (
        <p className="ap-muted">
          {s.noBases} <Link to="/knowledge-bases">{s.createBaseLink}</Link>
        </p>
      ) : (
        <form
          className="ap-stack"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ baseIds: chosen });
          }}
        >
          <fieldset className="ap-stack">
            <legend className="ap-visually-hidden">{s.usedBasesTitle}</legend>
            {options.map((base) => (
              <label key={base.id} className="ap-row">
                <input type="checkbox" checked={chosen.includes(base.id!)} onChange={(e) => toggle(base.id!, e.target.checked)} /> {base.name}
              </label>
            ))}
          </fieldset>
          <div>
            <Button type="submit" variant="primary" busy={save.isPending}>
              {s.saveUsedBases}
            </Button>
          </div>
          {save.isSuccess ? <p role="status">{s.usedBasesSaved}</p> : null}
          <ErrorText error={save.error} />
        </form>
      )}
    </section>
  );
}
