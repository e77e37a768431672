import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, Loading } from '../../components/States';
import { ItemCard } from './ItemCard';
import { PAGE_SIZE, useBrowse, useCategories, useFeatured, useUpdatesCount, type Kind, type Sort } from './queries';
import { categoryName, s } from './strings';

const SORTS: Sort[] = ['popular', 'recent', 'rating'];

/** Browse and search published plugins or themes: kind, words, category, sort and page kept in the address. */
export default function Browse() {
  const [params, setParams] = useSearchParams();
  const kind: Kind = params.get('kind') === 'themes' ? 'themes' : 'plugins';
  const search = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const sort = (SORTS as string[]).includes(params.get('sort') ?? '') ? (params.get('sort') as Sort) : 'popular';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [typed, setTyped] = useState(search);
  useEffect(() => setTyped(search), [search]);

  const list = useBrowse({ kind, page, search, category, sort });
  const categories = useCategories(kind);
  const updates = useUpdatesCount();
  const filtered = !!search || !!category;

  const change = (patch: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) (v ? next.set(k, v) : next.delete(k));
    if (!('page' in patch)) next.delete('page');
    setParams(next);
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    change({ q: typed.trim() });
  };

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.data.length && page === 1)
    body = filtered ? (
      <EmptyState title={s.noMatch}>{s.noMatchBody}</EmptyState>
    ) : (
      <EmptyState title={s.empty} action={<Link className="ap-button ap-button--primary" to="/market/submit">{s.submit}</Link>}>
        {s.emptyBody}
      </EmptyState>
    );
  else {
    const pages = Math.max(1, Math.ceil(list.data.total / PAGE_SIZE));
    body = (
      <section aria-labelledby="mk-results" className="ap-stack">
        <h2 id="mk-results" className="ap-mk-section-title">
          {s.results(list.data.total)}
        </h2>
        <ul className="ap-mk-grid" aria-label={s.kinds[kind]}>
          {list.data.data.map((item) => (
            <ItemCard key={item.id} item={item} kind={kind} />
          ))}
        </ul>
        {pages > 1 ? (
          <nav className="ap-actions" aria-label={s.pageOf(page, pages)}>
            <Button disabled={page <= 1} onClick={() => change({ page: String(page - 1) })}>
              {s.previous}
            </Button>
            <span className="ap-muted">{s.pageOf(page, pages)}</span>
            <Button disabled={page >= pages} onClick={() => change({ page: String(page + 1) })}>
              {s.next}
            </Button>
          </nav>
        ) : null}
      </section>
    );
  }

  return (
    <>
      <PageHeader
        title={s.title}
        description={s.description}
        actions={
          <>
            <Link className="ap-button ap-button--secondary" to="/market/updates">
              {updates.data ? s.updatesCount(updates.data) : s.updates}
            </Link>
            <Link className="ap-button ap-button--secondary" to="/market/licenses">
              {s.licenses}
            </Link>
            <Link className="ap-button ap-button--secondary" to="/market/submissions">
              {s.submissions}
            </Link>
            <Link className="ap-button ap-button--primary" to="/market/submit">
              {s.submit}
            </Link>
          </>
        }
      />
      <div className="ap-stack">
        <div className="ap-mk-kinds" role="group" aria-label={s.kindLabel}>
          {(['plugins', 'themes'] as const).map((k) => (
            <Button key={k} variant={k === kind ? 'primary' : 'secondary'} aria-pressed={k === kind} onClick={() => change({ kind: k === 'plugins' ? '' : k, category: '' })}>
              {s.kinds[k]}
            </Button>
          ))}
        </div>
        <form className="ap-mk-filters" role="search" onSubmit={onSearch}>
          <div className="ap-field">
            <label htmlFor="mk-search">{s.search}</label>
            <input id="mk-search" type="search" value={typed} placeholder={s.searchPlaceholder} maxLength={200} onChange={(e) => setTyped(e.target.value)} />
          </div>
          <Button type="submit">{s.searchButton}</Button>
          <div className="ap-field">
            <label htmlFor="mk-category">{s.category}</label>
            <select id="mk-category" className="ap-select" value={category} onChange={(e) => change({ category: e.target.value })}>
              <option value="">{s.allCategories}</option>
              {(categories.data ?? []).map((c) => (
                <option key={c} value={c}>
                  {categoryName(c)}
                </option>
              ))}
            </select>
          </div>
          <div className="ap-field">
            <label htmlFor="mk-sort">{s.sort}</label>
            <select id="mk-sort" className="ap-select" value={sort} onChange={(e) => change({ sort: e.target.value === 'popular' ? '' : e.target.value })}>
              {SORTS.map((o) => (
                <option key={o} value={o}>
                  {s.sorts[o]}
                </option>
              ))}
            </select>
          </div>
        </form>
        {!filtered && page === 1 && !list.isError ? <Featured kind={kind} /> : null}
        {body}
      </div>
    </>
  );
}

/** The items administrators feature; nothing when there are none (or they cannot be read: the list says why). */
function Featured({ kind }: { kind: Kind }) {
  const featured = useFeatured(kind);
  if (!featured.data?.length) return null;
  return (
    <section aria-labelledby="mk-featured" className="ap-stack">
      <h2 id="mk-featured" className="ap-mk-section-title">
        {s.featured}
      </h2>
      <ul className="ap-mk-grid" aria-label={s.featured}>
        {featured.data.map((item) => (
          <ItemCard key={item.id} item={item} kind={kind} />
        ))}
      </ul>
    </section>
  );
}
