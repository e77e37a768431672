import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { CATEGORIES, SORTS, type BrowseSort, type ItemKind } from '../domain/item';
import { toItemDetailView, toItemView, type ItemDetailView, type ItemView } from '../domain/views';
import type { CatalogRepository, ReviewRepository } from '../ports/marketplace-repository.port';
import { visibleItem } from './marketplace-access';

const MAX_SEARCH = 200;
const RECENT_REVIEWS = 5;

/** One value of a query parameter: a repeated parameter is a 400, not whichever came first. */
export function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = Object.hasOwn(query, name) ? query[name] : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw ValidationError.field(name, `${name} must be given once`);
  return value;
}

/** Browse published plugins or themes: page, limit (max 100), full-text search, category, sort. */
export class BrowseItemsUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}

  async execute(kind: ItemKind, query: Record<string, unknown>): Promise<Page<ItemView>> {
    const page = parsePageRequest({ page: single(query, 'page'), limit: single(query, 'limit') });
    const sort = single(query, 'sort') || 'popular';
    if (!(SORTS as readonly string[]).includes(sort)) throw ValidationError.field('sort', `sort must be one of ${SORTS.join(', ')}`);
    const search = single(query, 'search')?.trim() || undefined;
    if (search && search.length > MAX_SEARCH) throw ValidationError.field('search', `search must be at most ${MAX_SEARCH} characters`);
    const category = single(query, 'category') || undefined;
    if (category !== undefined && !CATEGORIES[kind].includes(category)) {
      throw ValidationError.field('category', `category must be one of ${CATEGORIES[kind].join(', ')}`);
    }
    const { items, total } = await this.deps.catalog.browse({ kind, offset: offsetOf(page), limit: page.limit, search, category, sort: sort as BrowseSort });
    return { data: items.map(toItemView), total, page: page.page, limit: page.limit };
  }
}

export class ListFeaturedUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}
  async execute(kind: ItemKind): Promise<ItemView[]> {
    return (await this.deps.catalog.featured(kind)).map(toItemView);
  }
}

export class ListCategoriesUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}
  execute(kind: ItemKind): Promise<string[]> {
    return this.deps.catalog.categories(kind);
  }
}

/** A plugin's or theme's detail with rating statistics and its recent reviews. */
export class GetItemUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; reviews: ReviewRepository }) {}

  async execute(kind: ItemKind, id: string, actor: Actor | undefined): Promise<ItemDetailView> {
    const item = await visibleItem(this.deps.catalog, kind, id, actor);
    return toItemDetailView(item, await this.deps.reviews.list(item.id, 0, RECENT_REVIEWS));
  }
}
