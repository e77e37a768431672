import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors';
import { num, validate } from '../../shared/validation';
import type { ItemKind, RatingStats } from '../domain/item';
import { toReviewView, type ReviewView } from '../domain/views';
import type { CatalogRepository, ReviewRepository } from '../ports/marketplace-repository.port';
import { single } from './browse.use-cases';
import { signedIn, visibleItem } from './marketplace-access';

export const MAX_REVIEW_CHARS = 5000;

const reviewSchema = yup.object({
  rating: num()
    .typeError('rating must be a whole number from 1 to 5')
    .required('rating is required')
    .integer('rating must be a whole number from 1 to 5')
    .min(1, 'rating must be a whole number from 1 to 5')
    .max(5, 'rating must be a whole number from 1 to 5'),
  review: yup.string().strict().typeError('review must be text').max(MAX_REVIEW_CHARS, `review must be at most ${MAX_REVIEW_CHARS} characters`),
  title: yup.string().strict().typeError('title must be text').max(200, 'title must be at most 200 characters'),
});

function readCount(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw ValidationError.field(name, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

export class ListReviewsUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; reviews: ReviewRepository }) {}

  async execute(kind: ItemKind, id: string, query: Record<string, unknown>, actor: Actor | undefined): Promise<ReviewView[]> {
    const limit = readCount(single(query, 'limit'), 'limit', 20, 1, 100);
    const skip = readCount(single(query, 'skip'), 'skip', 0, 0, 1_000_000);
    const item = await visibleItem(this.deps.catalog, kind, id, actor);
    return (await this.deps.reviews.list(item.id, skip, limit)).map((r) => toReviewView(r, kind));
  }
}

/** One review per user per item: a second submission replaces the first. The aggregates stay exact. */
export class UpsertReviewUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; reviews: ReviewRepository }) {}

  async execute(kind: ItemKind, id: string, body: unknown, actor: Actor | undefined): Promise<ReviewView & { ratingStats: RatingStats }> {
    const user = signedIn(actor);
    const input = await validate(reviewSchema, body);
    const item = await visibleItem(this.deps.catalog, kind, id, user);
    if (item.status !== 'published') throw new NotFoundError(kind === 'plugin' ? 'Plugin' : 'Theme');
    if (item.authorId === user.userId) throw new ForbiddenError('Authors cannot review their own items');
    const review = await this.deps.reviews.upsert(item.id, user.userId, input.rating, input.title ?? '', input.review ?? '');
    const after = await this.deps.catalog.findById(kind, item.id);
    return { ...toReviewView(review, kind), ratingStats: after!.ratingStats };
  }
}

export class DeleteReviewUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; reviews: ReviewRepository }) {}

  async execute(kind: ItemKind, id: string, actor: Actor | undefined): Promise<{ success: true; ratingStats: RatingStats }> {
    const user = signedIn(actor);
    const item = await visibleItem(this.deps.catalog, kind, id, user);
    if (!(await this.deps.reviews.delete(item.id, user.userId))) throw new NotFoundError('Review', 'You have no review of this item');
    const after = await this.deps.catalog.findById(kind, item.id);
    return { success: true, ratingStats: after!.ratingStats };
  }
}
