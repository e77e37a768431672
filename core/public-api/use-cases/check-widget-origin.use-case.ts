import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { isUuid } from '../../shared/ids';

/** Whether the page the widget runs on may use the application, and if not, what its owner must do. */
export type WidgetOriginCheck =
  | { allowed: true; origin: string | null }
  | { allowed: false; origin: string | null; reason: 'origin_not_allowed'; message: string };

/**
 * Answers the widget's question "may this site use the application?" without an API key, so a page
 * whose origin the application does not list (and whose other requests the browser therefore refuses
 * under CORS) can tell its owner why instead of reporting a network failure. It reveals no more than
 * whether the application lists the asking origin; an unknown application answers like an unlisted
 * origin, so application ids cannot be probed.
 */
export class CheckWidgetOriginUseCase {
  constructor(private readonly deps: { applications: ApplicationRepository }) {}

  async execute(applicationId: unknown, origin: string | undefined): Promise<WidgetOriginCheck> {
    // A request without a foreign origin (the platform's own pages, a server) is not subject to CORS.
    if (origin === undefined) return { allowed: true, origin: null };
    const app = isUuid(applicationId) ? await this.deps.applications.findById(applicationId) : null;
    if (app?.allowedOrigins.includes(origin)) return { allowed: true, origin };
    const site = origin.length <= 300 ? origin : 'this site';
    return {
      allowed: false,
      origin: origin.length <= 300 ? origin : null,
      reason: 'origin_not_allowed',
      message: `This chat is not enabled on ${site}. The site owner can enable it by adding ${site} to the application's allowed origins (allowedOrigins).`,
    };
  }
}
