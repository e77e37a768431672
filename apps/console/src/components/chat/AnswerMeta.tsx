import { formatDuration, formatUsd } from './format';
import { chatStrings as s } from './strings';
import type { AnswerMetaView } from './types';

/** What one answer used: provider and model, tokens in and out, its cost at the platform's prices, its time. */
export function AnswerMeta({ meta }: { meta: AnswerMetaView }) {
  const { provider, model, usage, cost, latencyMs } = meta;
  if (!model && !usage && latencyMs == null) return null;
  return (
    <dl className="ap-answer-meta" aria-label={s.meta}>
      {model ? (
        <div>
          <dt>{s.model}</dt>
          <dd>{provider ? `${provider} · ${model}` : model}</dd>
        </div>
      ) : null}
      {usage ? (
        <div>
          <dt>{s.tokens}</dt>
          <dd>{s.tokensValue(usage.promptTokens ?? 0, usage.completionTokens ?? 0)}</dd>
        </div>
      ) : null}
      {usage ? (
        <div>
          <dt>{s.cost}</dt>
          <dd>{typeof cost === 'number' ? formatUsd(cost) : s.costUnknown}</dd>
        </div>
      ) : null}
      {latencyMs != null ? (
        <div>
          <dt>{s.latency}</dt>
          <dd>{formatDuration(latencyMs)}</dd>
        </div>
      ) : null}
    </dl>
  );
}
