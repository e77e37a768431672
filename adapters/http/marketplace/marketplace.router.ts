import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ItemKind } from '../../../core/marketplace/domain/item';
import type { BrowseItemsUseCase, GetItemUseCase, ListCategoriesUseCase, ListFeaturedUseCase } from '../../../core/marketplace/use-cases/browse.use-cases';
import type { ListHeldLicensesUseCase } from '../../../core/marketplace/use-cases/list-held-licenses.use-case';
import type { LicensesUseCase, ValidateLicenseUseCase } from '../../../core/marketplace/use-cases/licenses.use-cases';
import type {
  ListMySubmissionsUseCase,
  ListPendingUseCase,
  PendingCountsUseCase,
  ReviewSubmissionUseCase,
  SetFeaturedUseCase,
} from '../../../core/marketplace/use-cases/moderation.use-cases';
import type { DeleteReviewUseCase, ListReviewsUseCase, UpsertReviewUseCase } from '../../../core/marketplace/use-cases/reviews.use-cases';
import type { SubmitPluginUseCase, SubmitThemeUseCase } from '../../../core/marketplace/use-cases/submit.use-cases';
import type {
  DownloadPackageUseCase,
  GetVersionUseCase,
  LatestCompatibleVersionsUseCase,
  ListVersionsUseCase,
  PackageUrl,
  PublishVersionUseCase,
} from '../../../core/marketplace/use-cases/versions.use-cases';
import { actingActor } from '../shared/marketplace-auth.middleware';

export interface MarketplaceUseCases {
  browse: BrowseItemsUseCase;
  featured: ListFeaturedUseCase;
  categories: ListCategoriesUseCase;
  get: GetItemUseCase;
  listReviews: ListReviewsUseCase;
  upsertReview: UpsertReviewUseCase;
  deleteReview: DeleteReviewUseCase;
  listVersions: ListVersionsUseCase;
  getVersion: GetVersionUseCase;
  publishVersion: PublishVersionUseCase;
  download: DownloadPackageUseCase;
  latest: LatestCompatibleVersionsUseCase;
  submitPlugin: SubmitPluginUseCase;
  submitTheme: SubmitThemeUseCase;
  pending: ListPendingUseCase;
  pendingCounts: PendingCountsUseCase;
  moderation: ReviewSubmissionUseCase;
  featuring: SetFeaturedUseCase;
  mine: ListMySubmissionsUseCase;
  licenses: LicensesUseCase;
  validateLicense: ValidateLicenseUseCase;
  heldLicenses: ListHeldLicensesUseCase;
}

/** Where this service serves a stored package, on the host the caller reached it by. */
const packageUrlFor =
  (ctx: Context): PackageUrl =>
  (itemId, version) =>
    `${ctx.protocol}://${ctx.host}/marketplace/plugins/${itemId}/versions/${encodeURIComponent(version)}/package`;

const query = (ctx: Context): Record<string, unknown> => ctx.query as Record<string, unknown>;

/** The marketplace service's HTTP API, every route behind the service token (`auth`). */
export function marketplaceRouter(auth: Middleware, u: MarketplaceUseCases): Router {
  const r = new Router({ prefix: '/marketplace' });
  r.use(auth);

  // Catalog. Fixed paths before `/:id`.
  r.get('/browse', async (ctx) => {
    ctx.body = await u.browse.execute('plugin', query(ctx));
  });
  for (const path of ['/plugins/featured', '/featured']) {
    r.get(path, async (ctx) => {
      ctx.body = await u.featured.execute('plugin');
    });
  }
  for (const path of ['/plugins/categories', '/categories']) {
    r.get(path, async (ctx) => {
      ctx.body = await u.categories.execute('plugin');
    });
  }
  r.get('/themes', async (ctx) => {
    ctx.body = await u.browse.execute('theme', query(ctx));
  });
  r.get('/themes/featured', async (ctx) => {
    ctx.body = await u.featured.execute('theme');
  });
  r.get('/themes/categories', async (ctx) => {
    ctx.body = await u.categories.execute('theme');
  });

  for (const [kind, base] of [
    ['plugin', '/plugins'],
    ['theme', '/themes'],
  ] as [ItemKind, string][]) {
    r.get(`${base}/:id`, async (ctx) => {
      ctx.body = await u.get.execute(kind, ctx.params.id!, actingActor(ctx));
    });
    r.get(`${base}/:id/reviews`, async (ctx) => {
      ctx.body = await u.listReviews.execute(kind, ctx.params.id!, query(ctx), actingActor(ctx));
    });
    r.post(`${base}/:id/reviews`, async (ctx) => {
      ctx.body = await u.upsertReview.execute(kind, ctx.params.id!, ctx.request.body, actingActor(ctx));
    });
    r.delete(`${base}/:id/reviews`, async (ctx) => {
      ctx.body = await u.deleteReview.execute(kind, ctx.params.id!, actingActor(ctx));
    });
  }

  // Versions and packages.
  r.get('/plugins/:id/versions', async (ctx) => {
    ctx.body = await u.listVersions.execute(ctx.params.id!, actingActor(ctx), packageUrlFor(ctx));
  });
  r.post('/plugins/:id/versions', async (ctx) => {
    ctx.status = 201;
    ctx.body = await u.publishVersion.execute(ctx.params.id!, ctx.request.body, actingActor(ctx), packageUrlFor(ctx));
  });
  r.get('/plugins/:id/versions/:version', async (ctx) => {
    ctx.body = await u.getVersion.execute(ctx.params.id!, ctx.params.version!, actingActor(ctx), packageUrlFor(ctx));
  });
  r.get('/plugins/:id/versions/:version/package', async (ctx) => {
    const pkg = await u.download.execute(ctx.params.id!, ctx.params.version!, actingActor(ctx));
    ctx.set('Content-Disposition', `attachment; filename="${pkg.fileName}"`);
    ctx.set('X-Checksum', pkg.checksum);
    ctx.type = 'application/zip';
    ctx.body = pkg.bytes;
  });
  r.post('/versions/latest', async (ctx) => {
    ctx.body = await u.latest.execute(ctx.request.body, packageUrlFor(ctx));
  });

  // Licenses.
  r.get('/plugins/:id/licenses', async (ctx) => {
    ctx.body = await u.licenses.list(ctx.params.id!, actingActor(ctx));
  });
  r.post('/plugins/:id/licenses', async (ctx) => {
    ctx.status = 201;
    ctx.body = await u.licenses.issue(ctx.params.id!, ctx.request.body, actingActor(ctx));
  });
  r.delete('/plugins/:id/licenses/:userId', async (ctx) => {
    ctx.body = await u.licenses.revoke(ctx.params.id!, ctx.params.userId!, actingActor(ctx));
  });
  // The caller's own licenses: `{ data, total, page, limit }` like the other paged reads here (the core answers an array).
  r.get('/licenses', async (ctx) => {
    ctx.body = await u.heldLicenses.execute(query(ctx), actingActor(ctx));
  });
  r.get('/licenses/validate', async (ctx) => {
    ctx.body = await u.validateLicense.execute(query(ctx), actingActor(ctx));
  });

  // Submission and review.
  r.post('/submit/plugin', async (ctx) => {
    ctx.status = 201;
    ctx.body = await u.submitPlugin.execute(ctx.request.body, actingActor(ctx));
  });
  r.post('/submit/theme', async (ctx) => {
    ctx.status = 201;
    ctx.body = await u.submitTheme.execute(ctx.request.body, actingActor(ctx));
  });
  r.get('/submissions', async (ctx) => {
    ctx.body = await u.mine.execute(actingActor(ctx));
  });
  r.get('/admin/pending/count', async (ctx) => {
    ctx.body = await u.pendingCounts.execute(actingActor(ctx));
  });
  for (const [kind, plural] of [
    ['plugin', 'plugins'],
    ['theme', 'themes'],
  ] as [ItemKind, string][]) {
    r.get(`/admin/pending/${plural}`, async (ctx) => {
      ctx.body = await u.pending.execute(kind, query(ctx), actingActor(ctx));
    });
    r.post(`/admin/${plural}/:id/approve`, async (ctx) => {
      ctx.body = await u.moderation.approve(kind, ctx.params.id!, actingActor(ctx));
    });
    r.post(`/admin/${plural}/:id/reject`, async (ctx) => {
      ctx.body = await u.moderation.reject(kind, ctx.params.id!, ctx.request.body, actingActor(ctx));
    });
    r.put(`/admin/${plural}/:id/featured`, async (ctx) => {
      ctx.body = await u.featuring.execute(kind, ctx.params.id!, ctx.request.body, actingActor(ctx));
    });
  }
  return r;
}
