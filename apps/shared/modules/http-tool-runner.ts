import type { OutboundUrlRules } from '../../../core/shared/outbound-url-rules.port';
import { SsrfSafeHttpToolRunner } from '../../../adapters/tools/ssrf-safe.http-tool-runner';
import { SsrfSafeWebhookSender } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { SsrfSafeWorkflowHttp } from '../../../adapters/workflows/ssrf-safe.workflow-http';
import type { Getter } from '../app-module';
import { TOKENS } from '../tokens';

const configuredRules = (get: Getter) => {
  const config = get(TOKENS.Config);
  return { allowHttp: config.outboundAllowHttp, allowedPrivateCidrs: config.outboundAllowedPrivateCidrs };
};

/** The outbound rules http tools are called under (OUTBOUND_ALLOW_HTTP, OUTBOUND_ALLOWED_PRIVATE_CIDRS; the WEBHOOKS_* names as aliases): their save applies them too. */
export function outboundUrlRules(get: Getter): OutboundUrlRules {
  return new SsrfSafeWebhookSender(configuredRules(get));
}

/** The http tool runner (docs/tools.md): the workflows' SSRF-safe client with the configured allow rules, secrets opened per call. */
export function httpToolRunner(get: Getter): SsrfSafeHttpToolRunner {
  return new SsrfSafeHttpToolRunner(new SsrfSafeWorkflowHttp({ ...configuredRules(get), urlCheck: outboundUrlRules(get) }), get(TOKENS.SecretBox));
}
