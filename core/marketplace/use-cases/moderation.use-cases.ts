import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { validate } from '../../shared/validation';
import type { Clock } from '../../shared/clock.port';
import type { ItemKind } from '../domain/item';
import { toItemDetailView, toItemView, type ItemDetailView, type ItemView } from '../domain/views';
import type { CatalogRepository } from '../ports/marketplace-repository.port';
import { single } from './browse.use-cases';
import { adminOnly, KIND_NAME, signedIn } from './marketplace-access';

/** Items awaiting review, oldest first (administrators). */
export class ListPendingUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}

  async execute(kind: ItemKind, query: Record<string, unknown>, actor: Actor | undefined): Promise<Page<ItemView>> {
    adminOnly(actor);
    const page = parsePageRequest({ page: single(query, 'page'), limit: single(query, 'limit') });
    const { items, total } = await this.deps.catalog.listByStatus(kind, 'pending', offsetOf(page), page.limit);
    return { data: items.map(toItemView), total, page: page.page, limit: page.limit };
  }
}

/** How many plugins and themes await review (the admin console's badges). */
export class PendingCountsUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}

  async execute(actor: Actor | undefined): Promise<{ plugins: number; themes: number; total: number }> {
    adminOnly(actor);
    const counts = await this.deps.catalog.countPending();
    return { plugins: counts.plugin, themes: counts.theme, total: counts.plugin + counts.theme };
  }
}

const rejectSchema = yup.object({
  reason: yup.string().strict().typeError('reason must be text').trim().required('reason is required: the author reads it').max(2000, 'reason must be at most 2000 characters'),
});

/** Approve (pending or rejected → published) and reject (pending or published → rejected, with a reason). */
export class ReviewSubmissionUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; clock: Clock }) {}

  async approve(kind: ItemKind, id: string, actor: Actor | undefined): Promise<ItemDetailView> {
    const admin = adminOnly(actor);
    const item = await this.find(kind, id);
    if (item.status === 'published') throw new ConflictError(`This ${kind} is published already`);
    const moved = await this.deps.catalog.review(kind, item.id, ['pending', 'rejected'], 'published', admin.userId, null, this.deps.clock.now());
    if (!moved) throw new ConflictError(`This ${kind} was reviewed meanwhile`);
    return toItemDetailView(moved, []);
  }

  async reject(kind: ItemKind, id: string, body: unknown, actor: Actor | undefined): Promise<ItemDetailView> {
    const admin = adminOnly(actor);
    const { reason } = await validate(rejectSchema, body);
    const item = await this.find(kind, id);
    if (item.status === 'rejected') throw new ConflictError(`This ${kind} is rejected already`);
    const moved = await this.deps.catalog.review(kind, item.id, ['pending', 'published'], 'rejected', admin.userId, reason, this.deps.clock.now());
    if (!moved) throw new ConflictError(`This ${kind} was reviewed meanwhile`);
    return toItemDetailView(moved, []);
  }

  private async find(kind: ItemKind, id: string) {
    const item = isUuid(id) ? await this.deps.catalog.findById(kind, id) : null;
    if (!item) throw new NotFoundError(KIND_NAME[kind]);
    return item;
  }
}

const featuredSchema = yup.object({ featured: yup.boolean().strict().typeError('featured must be true or false').required('featured is required') });

/** Administrators feature published items (or stop featuring any item). */
export class SetFeaturedUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}

  async execute(kind: ItemKind, id: string, body: unknown, actor: Actor | undefined): Promise<ItemView> {
    adminOnly(actor);
    const { featured } = await validate(featuredSchema, body);
    const item = isUuid(id) ? await this.deps.catalog.findById(kind, id) : null;
    if (!item) throw new NotFoundError(KIND_NAME[kind]);
    if (featured && item.status !== 'published') throw new ConflictError(`Only a published ${kind} can be featured`);
    return toItemView((await this.deps.catalog.setFeatured(kind, item.id, featured))!);
  }
}

/** The caller's own submissions, in any state, with the reason of a rejection. */
export class ListMySubmissionsUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}

  async execute(actor: Actor | undefined): Promise<Array<ItemView & { kind: ItemKind; rejectionReason: string | null }>> {
    const me = signedIn(actor);
    return (await this.deps.catalog.listByAuthor(me.userId)).map((i) => ({ ...toItemView(i), kind: i.kind, rejectionReason: i.rejectionReason }));
  }
}
