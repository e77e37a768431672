import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button';
import { Field } from '../../components/Field';
import { EmptyState, ErrorText } from '../../components/States';
import { useSearch, type SearchMode, type SearchScope } from './queries';
import { s } from './strings';

/**
 * Runs the knowledge search as a chat would, in a chosen mode, and shows the scored hits: an application's
 * (every base it uses, and as its chats do with its retrieval settings) or one knowledge base's.
 */
export function SearchTester({ scope }: { scope?: SearchScope }) {
  const search = useSearch(scope);
  const forApplication = !!scope && 'applicationId' in scope;
  const form = useForm<{ query: string; mode: SearchMode; asChat: boolean }>({ defaultValues: { query: '', mode: 'hybrid', asChat: false } });
  const submit = form.handleSubmit((values) => search.mutate({ query: values.query.trim(), mode: values.mode, asChat: values.asChat }));

  return (
    <section className="ap-card ap-stack" aria-labelledby="kn-search">
      <div>
        <h2 id="kn-search">{s.searchTitle}</h2>
        <p className="ap-muted">{s.searchDescription}</p>
      </div>
      <form className="ap-inline-form" noValidate onSubmit={submit}>
        <Field label={s.query} error={form.formState.errors.query?.message} {...form.register('query', { validate: (v) => (v.trim() ? true : s.queryRequired) })} />
        <div className="ap-field">
          <label htmlFor="kn-mode">{s.mode}</label>
          <select id="kn-mode" {...form.register('mode')}>
            {(Object.keys(s.modes) as SearchMode[]).map((mode) => (
              <option key={mode} value={mode}>
                {s.modes[mode]}
              </option>
            ))}
          </select>
        </div>
        {forApplication ? (
          <label className="ap-row">
            <input type="checkbox" {...form.register('asChat')} /> {s.asChat}
          </label>
        ) : null}
        <Button type="submit" variant="primary" busy={search.isPending}>
          {search.isPending ? s.searching : s.search}
        </Button>
      </form>
      <ErrorText error={search.error} />
      {search.data ? (
        search.data.length ? (
          <>
            <p className="ap-muted" role="status">
              {s.hits(search.data.length)}
            </p>
            <ol className="ap-kn-hits" aria-label={s.searchTitle}>
              {search.data.map((hit) => (
                <li key={`${hit.documentId}-${hit.chunkIndex}`} className="ap-kn-hit">
                  <span className="ap-strong">{hit.fileName}</span>
                  <span className="ap-muted">
                    {' · '}
                    {s.chunk(hit.chunkIndex ?? 0)}
                    {hit.page != null ? ` · ${s.page(hit.page)}` : ''}
                    {hit.section ? ` · ${s.section(hit.section)}` : ''}
                    {' · '}
                  </span>
                  <span className="ap-kn-score">{s.score(hit.score ?? 0)}</span>
                  <p>{hit.text}</p>
                </li>
              ))}
            </ol>
          </>
        ) : (
          <EmptyState title={s.noHits}>{s.noHitsBody}</EmptyState>
        )
      ) : null}
    </section>
  );
}
