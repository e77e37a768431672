import type { ApiKey } from '../../api-keys/domain/api-key';

/** Who is calling the public API: an admitted key, and where the request comes from. */
export interface PublicCaller {
  key: ApiKey;
  /** The browser origin of a cross-origin request (the `Origin` header); absent for servers and same-origin pages. */
  origin?: string;
  /** `widget` when the embeddable widget says so (header `X-Client: widget`), otherwise `api`. */
  source: 'api' | 'widget';
  /**
   * A widget preview session (the console's preview frame): usable only with this application, and
   * exempt from its allowed origins (the middleware admitted it only from the frame's opaque origin or
   * the platform's own pages, and then leaves `origin` unset).
   */
  preview?: { applicationId: string };
}
