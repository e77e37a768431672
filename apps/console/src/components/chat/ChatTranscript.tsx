import { Star } from 'lucide-react';
import { forwardRef, type ReactNode } from 'react';
import { AnswerMeta } from './AnswerMeta';
import { chatStrings as s } from './strings';
import { ToolCallBlock } from './ToolCallBlock';
import type { AnswerEntry, TranscriptEntry } from './types';

export interface ChatTranscriptProps {
  entries: readonly TranscriptEntry[];
  /** Shown while there is nothing else. */
  empty?: ReactNode;
  /** Ratings (complete answers with a stored id only); absent: no rating buttons. */
  ratings?: Record<string, number>;
  onRate?: (messageId: string, rating: number) => void;
  rateBusy?: boolean;
}

/**
 * A chat's transcript from its entries (`transcriptOf` for stored messages, `applyAnswerEvent` for a
 * streamed answer): the user's messages, and each answer as one bubble holding its tool call blocks, its
 * text, its sources and its meta. Knows nothing of where the messages come from (the playground, the
 * studio's debug chat on a draft). The list is a polite live region; its end is scrolled into view by the
 * `ref` of the last item.
 */
export const ChatTranscript = forwardRef<HTMLLIElement, ChatTranscriptProps>(function ChatTranscript({ entries, empty, ratings, onRate, rateBusy }, end) {
  return (
    <ol className="ap-transcript" aria-live="polite">
      {!entries.length && empty ? <li className="ap-muted ap-transcript__empty">{empty}</li> : null}
      {entries.map((entry) =>
        entry.kind === 'user' ? (
          <li key={entry.key} className="ap-message ap-message--user">
            <p className="ap-message__who">{s.you}</p>
            <div className="ap-message__body">{entry.content}</div>
          </li>
        ) : (
          <Answer key={entry.key} answer={entry} rating={entry.messageId ? ratings?.[entry.messageId] : undefined} onRate={onRate} rateBusy={rateBusy} />
        ),
      )}
      <li ref={end} aria-hidden className="ap-transcript__end" />
    </ol>
  );
});

function Answer({ answer, rating, onRate, rateBusy }: { answer: AnswerEntry; rating?: number; onRate?: ChatTranscriptProps['onRate']; rateBusy?: boolean }) {
  const streaming = answer.status === 'streaming';
  const rate = onRate && answer.status === 'complete' && answer.messageId ? (n: number) => onRate(answer.messageId!, n) : undefined;
  const waiting = streaming && !answer.content && !answer.toolCalls.some((c) => !c.result);
  return (
    <li className={`ap-message ap-message--assistant${answer.status === 'stopped' || answer.status === 'interrupted' ? ' ap-message--stopped' : ''}`}>
      <p className="ap-message__who">{s.assistant}</p>
      {answer.toolCalls.length ? (
        <div className="ap-tool-calls">
          {answer.toolCalls.map((call) => (
            <ToolCallBlock key={call.id} call={call} running={streaming} />
          ))}
        </div>
      ) : null}
      {answer.content || waiting ? (
        <div className="ap-message__body" aria-busy={streaming || undefined}>
          {answer.content || <span className="ap-muted">{s.thinking}</span>}
        </div>
      ) : null}
      {answer.status === 'failed' ? <p className="ap-error-text">{s.failed}</p> : null}
      {answer.status === 'interrupted' ? <p className="ap-muted">{s.interrupted}</p> : null}
      {answer.status === 'stopped' ? <p className="ap-muted">{s.stopped}</p> : null}
      {answer.sources?.length ? (
        <div className="ap-sources">
          <p className="ap-message__who">{s.sources}</p>
          <ol>
            {answer.sources.map((source, i) => (
              <li key={i}>
                <span className="ap-strong">{source.fileName}</span>
                {source.excerpt ? <span className="ap-muted ap-block">{source.excerpt}</span> : null}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      {answer.meta && !streaming ? <AnswerMeta meta={answer.meta} /> : null}
      {rate ? (
        <div className="ap-rating" role="group" aria-label={s.rate}>
          {[1, 2, 3, 4, 5].map((n) => (
            <button key={n} type="button" className="ap-icon-button" aria-label={s.rateValue(n)} aria-pressed={rating === n} disabled={rateBusy} onClick={() => rate(n)}>
              <Star aria-hidden size={16} className={rating && n <= rating ? 'ap-star--on' : undefined} />
            </button>
          ))}
          {rating ? (
            <span className="ap-muted" role="status">
              {s.rated(rating)}
            </span>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
