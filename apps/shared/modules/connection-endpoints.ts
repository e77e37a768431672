import { SsrfSafeConnectionEndpoints } from '../../../adapters/connections/ssrf-safe.connection-endpoints';
import { SsrfSafeWebhookSender } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import type { AppConfig } from '../config';

/**
 * Connections over the network under their own address rules (docs/connections.md): CONNECTIONS_ALLOW_HTTP
 * and CONNECTIONS_ALLOWED_PRIVATE_CIDRS, applied on save and on every request, wherever the engine runs.
 */
export function connectionEndpoints(config: AppConfig): SsrfSafeConnectionEndpoints {
  const rules = new SsrfSafeWebhookSender({ allowHttp: config.connectionsAllowHttp, allowedPrivateCidrs: config.connectionsAllowedPrivateCidrs });
  return new SsrfSafeConnectionEndpoints({ rules, allowedPrivateCidrs: config.connectionsAllowedPrivateCidrs, timeoutMs: config.providerTimeoutMs });
}
