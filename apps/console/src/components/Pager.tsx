import { t } from '../lib/strings';
import { Button } from './Button';

/**
 * Under a paged list: how many there are (`total`, in the list's words), and past one page the previous and next
 * pages with where the reader is.
 */
export function Pager({ total, count, page, pageSize, onPage }: { total: string; count: number; page: number; pageSize: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(count / pageSize));
  return (
    <div className="ap-actions">
      <span className="ap-muted">{total}</span>
      {pages > 1 ? (
        <>
          <Button disabled={page <= 1} onClick={() => onPage(page - 1)}>
            {t.previousPage}
          </Button>
          <span>{t.pageOf(page, pages)}</span>
          <Button disabled={page >= pages} onClick={() => onPage(page + 1)}>
            {t.nextPage}
          </Button>
        </>
      ) : null}
    </div>
  );
}
