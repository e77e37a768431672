import type { Application } from '../../applications/domain/application';
import { SLUG_PATTERN } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { NotFoundError } from '../../shared/errors';

/** The application behind a hosted chat page: one whose owner turned the page on; any other slug is 404. */
export async function findHostedApplication(applications: ApplicationRepository, slug: unknown): Promise<Application> {
  const app = typeof slug === 'string' && SLUG_PATTERN.test(slug) ? await applications.findBySlug(slug) : null;
  if (!app || !app.hostedPageEnabled) throw new NotFoundError('Chat page');
  return app;
}
