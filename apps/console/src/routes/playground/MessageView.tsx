import { Star } from 'lucide-react';
import type { ChatEvent } from '../../lib/chat-stream';
import { s } from './strings';

type Source = NonNullable<Extract<ChatEvent, { type: 'done' }>['sources']>[number];

/** One turn of the transcript; API text is always rendered as text. */
export function MessageView(props: {
  role: 'user' | 'assistant';
  content: string;
  status?: string;
  streaming?: boolean;
  sources?: Source[];
  rating?: number;
  onRate?: (rating: number) => void;
  rateBusy?: boolean;
}) {
  const { role, content, status, streaming, sources, rating, onRate } = props;
  return (
    <li className={`ap-message ap-message--${role}`}>
      <p className="ap-message__who">{role === 'user' ? s.you : s.assistant}</p>
      <div className="ap-message__body" aria-busy={streaming || undefined}>
        {content || (streaming ? <span className="ap-muted">{s.thinking}</span> : null)}
      </div>
      {status === 'failed' ? <p className="ap-error-text">{s.failed}</p> : null}
      {status === 'interrupted' ? <p className="ap-muted">{s.interrupted}</p> : null}
      {sources?.length ? (
        <div className="ap-sources">
          <p className="ap-message__who">{s.sources}</p>
          <ol>
            {sources.map((source, i) => (
              <li key={i}>
                <span className="ap-strong">{source.fileName}</span>
                {source.excerpt ? <span className="ap-muted ap-block">{source.excerpt}</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {onRate ? (
        <div className="ap-rating" role="group" aria-label={s.rate}>
          {[1, 2, 3, 4, 5].map((n) => (
            <button
              key={n}
              type="button"
              className="ap-icon-button"
              aria-label={s.rateValue(n)}
              aria-pressed={rating === n}
              disabled={props.rateBusy}
              onClick={() => onRate(n)}
            >
              <Star aria-hidden size={16} className={rating && n <= rating ? 'ap-star--on' : undefined} />
            </button>
          ))}
          {rating ? <span className="ap-muted" role="status">{s.rated(rating)}</span> : null}
        </div>
      ) : null}
    </li>
  );
}
