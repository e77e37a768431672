import { SsrfSafeHttpToolRunner } from '../../../adapters/tools/ssrf-safe.http-tool-runner';
import { SsrfSafeWebhookSender } from '../../../adapters/webhooks/ssrf-safe.webhook-sender';
import { SsrfSafeWorkflowHttp } from '../../../adapters/workflows/ssrf-safe.workflow-http';
import type { Getter } from '../app-module';
import { TOKENS } from '../tokens';

/** The http tool runner (docs/tools.md): the workflows' SSRF-safe client with the configured allow rules, secrets opened per call. */
export function httpToolRunner(get: Getter): SsrfSafeHttpToolRunner {
  const config = get(TOKENS.Config);
  const rules = { allowHttp: config.webhooksAllowHttp, allowedPrivateCidrs: config.webhooksAllowedPrivateCidrs };
  return new SsrfSafeHttpToolRunner(new SsrfSafeWorkflowHttp({ ...rules, urlCheck: new SsrfSafeWebhookSender(rules) }), get(TOKENS.SecretBox));
}
