import type { Container } from 'inversify';
import { apiKeysRouter } from '../../../adapters/http/api-keys/api-keys.router';
import { TypeOrmApiKeyRepository } from '../../../adapters/persistence/api-keys/type-orm-api-key.repository';
import { ApiKeyLookup } from '../../../core/api-keys/use-cases/api-key-lookup';
import { ApiKeyUsageTracker } from '../../../core/api-keys/use-cases/api-key-usage-tracker';
import { AuthenticateApiKeyUseCase } from '../../../core/api-keys/use-cases/authenticate-api-key.use-case';
import { CreateApiKeyUseCase } from '../../../core/api-keys/use-cases/create-api-key.use-case';
import { DeleteApiKeyUseCase } from '../../../core/api-keys/use-cases/delete-api-key.use-case';
import { ListApiKeysUseCase } from '../../../core/api-keys/use-cases/list-api-keys.use-case';
import { RevokeApiKeyUseCase } from '../../../core/api-keys/use-cases/revoke-api-key.use-case';
import { HmacPreviewTokens } from '../../../adapters/crypto/hmac.preview-tokens';
import { widgetPreviewRouter } from '../../../adapters/http/public-api/widget-preview.router';
import { IssueWidgetPreviewUseCase } from '../../../core/public-api/use-cases/issue-widget-preview.use-case';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { GUARD_TOKENS } from '../../shared/modules/guard.tokens';
import { eventDeps } from '../../shared/modules/event.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { API_KEY_TOKENS } from './api-keys.tokens';

/** How often request counts and last-use times counted in memory are written to the database. */
export const USAGE_FLUSH_INTERVAL_MS = 10_000;

/** API keys (SPEC 2.11, 4.11, 5.5): management for their owners and admission of public-API requests. */
export const apiKeysModule: AppModule = {
  name: 'api-keys',
  bind(c: Container) {
    provide(c, API_KEY_TOKENS.ApiKeyRepository, (get) => new TypeOrmApiKeyRepository(get(TOKENS.DataSource)));
    const keys = (get: Getter) => get(API_KEY_TOKENS.ApiKeyRepository);
    provide(c, ApiKeyLookup, (get) => new ApiKeyLookup({ keys: keys(get), cache: get(TOKENS.Cache) }));
    provide(c, ApiKeyUsageTracker, (get) => new ApiKeyUsageTracker({ keys: keys(get) }));
    provide(c, CreateApiKeyUseCase, (get) =>
      new CreateApiKeyUseCase({
        keys: keys(get),
        applications: get(TOKENS.ApplicationRepository),
        hasher: get(TOKENS.KeyHasher),
        guard: c.isBound(GUARD_TOKENS.ApiKeyQuotaGuard) ? get(GUARD_TOKENS.ApiKeyQuotaGuard) : undefined,
      }),
    );
    provide(c, ListApiKeysUseCase, (get) => new ListApiKeysUseCase({ keys: keys(get), usage: get(ApiKeyUsageTracker) }));
    provide(c, RevokeApiKeyUseCase, (get) => new RevokeApiKeyUseCase({ keys: keys(get), applications: get(TOKENS.ApplicationRepository), lookup: get(ApiKeyLookup), clock: get(TOKENS.Clock), ...eventDeps(c, get) }));
    provide(c, DeleteApiKeyUseCase, (get) => new DeleteApiKeyUseCase({ keys: keys(get), applications: get(TOKENS.ApplicationRepository), lookup: get(ApiKeyLookup), ...eventDeps(c, get) }));
    provide(c, API_KEY_TOKENS.PreviewTokens, (get) => new HmacPreviewTokens(get(TOKENS.Config).jwtSecret));
    provide(c, IssueWidgetPreviewUseCase, (get) =>
      new IssueWidgetPreviewUseCase({ applications: get(TOKENS.ApplicationRepository), keys: keys(get), tokens: get(API_KEY_TOKENS.PreviewTokens), clock: get(TOKENS.Clock) }),
    );
    provide(c, AuthenticateApiKeyUseCase, (get) =>
      new AuthenticateApiKeyUseCase({
        lookup: get(ApiKeyLookup),
        hasher: get(TOKENS.KeyHasher),
        limiter: get(TOKENS.RateLimiter),
        usage: get(ApiKeyUsageTracker),
        clock: get(TOKENS.Clock),
        owners: get(TOKENS.UserRepository),
        previews: { tokens: get(API_KEY_TOKENS.PreviewTokens), keys: keys(get) },
      }),
    );
  },
  routers: (c) => [
    apiKeysRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      create: resolve(c, CreateApiKeyUseCase),
      list: resolve(c, ListApiKeysUseCase),
      revoke: resolve(c, RevokeApiKeyUseCase),
      remove: resolve(c, DeleteApiKeyUseCase),
    }),
    widgetPreviewRouter({ auth: resolve(c, TOKENS.AuthMiddleware), issue: resolve(c, IssueWidgetPreviewUseCase) }),
  ],
  async start(c: Container) {
    const usage = resolve(c, ApiKeyUsageTracker);
    const logger = resolve(c, TOKENS.Logger);
    const flush = () => usage.flush().catch((err: Error) => logger.warn({ err: { message: err.message } }, 'could not record API key usage; will retry'));
    const timer = setInterval(flush, USAGE_FLUSH_INTERVAL_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await flush();
    };
  },
};
