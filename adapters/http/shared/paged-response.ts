import type { Context } from 'koa';
import type { Page } from '../../../core/shared/pagination';

/**
 * A list endpoint's answer (ARCHITECTURE.md: an array unless the spec gives `{ data, total, page,
 * limit }`): the page's items as the body, the number of all items in `X-Total-Count`.
 */
export function respondWithPage<T>(ctx: Context, page: Page<T>): void {
  ctx.set('X-Total-Count', String(page.total));
  ctx.body = page.data;
}
