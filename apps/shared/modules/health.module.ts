import type { Container } from 'inversify';
import { healthRouter } from '../../../adapters/http/health/health.router';
import { docsRouter } from '../../../adapters/http/docs/docs.router';
import { faviconRouter } from '../../../adapters/http/docs/favicon.router';
import { loadOpenApiDocument } from '../../../adapters/http/docs/openapi-document';
import type { HealthCheck } from '../../../core/health/ports/health-check.port';
import { GetHealthUseCase } from '../../../core/health/use-cases/get-health.use-case';
import type { Clock } from '../../../core/shared/clock.port';
import { provide, type AppModule } from '../app-module';
import { TOKENS, resolve } from '../tokens';
import { PLATFORM_VERSION } from '../version';

/** `/api/health`, the API reference (`/api/openapi.json`, `/api/docs`) and `/favicon.ico` of one app. */
export function healthModule(service: string, openApiName: string, extraChecks: HealthCheck[] = []): AppModule {
  return {
    name: 'health',
    bind(c: Container) {
      provide(c, GetHealthUseCase, (get) =>
        new GetHealthUseCase({
          service,
          version: PLATFORM_VERSION,
          checks: [...get<HealthCheck[]>(TOKENS.HealthChecks), ...extraChecks],
          clock: get<Clock>(TOKENS.Clock),
        }),
      );
    },
    routers: (c) => [healthRouter(resolve(c, GetHealthUseCase)), docsRouter(loadOpenApiDocument(openApiName), service), faviconRouter()],
  };
}
