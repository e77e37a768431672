import { ErrorText } from '../../components/States';
import type { DebugEvent } from './debug-stream';
import { s } from './strings';

type Done = Extract<DebugEvent, { type: 'done' }>;

export interface ToolCallView {
  id: string;
  name: string;
  arguments: unknown;
  result?: string;
  isError?: boolean;
  durationMs?: number;
}

/** One question and its answer in the debug chat. */
export interface DebugTurn {
  question: string;
  answer: string;
  streaming: boolean;
  toolCalls: ToolCallView[];
  done?: Done;
  error?: unknown;
}

/**
 * The debug chat's transcript: each answer with one collapsible block of its details (model, tokens, cost,
 * latency, sources, tool calls), never extra bubbles. Kept small and apart, to be replaced by the shared
 * transcript (`src/components/chat/`). API text is rendered as text only.
 */
export function DebugTranscript({ turns, empty }: { turns: DebugTurn[]; empty: string }) {
  if (!turns.length) return <p className="ap-muted">{empty}</p>;
  return (
    <ol className="ap-transcript ap-studio-transcript" aria-live="polite">
      {turns.map((turn, i) => (
        <li key={i} className="ap-studio-turn">
          <div className="ap-message ap-message--user">
            <p className="ap-message__who">{s.you}</p>
            <div className="ap-message__body">{turn.question}</div>
          </div>
          <div className="ap-message ap-message--assistant">
            <p className="ap-message__who">{s.assistant}</p>
            <div className="ap-message__body" aria-busy={turn.streaming || undefined}>
              {turn.answer || (turn.streaming ? <span className="ap-muted">{s.thinking}</span> : null)}
            </div>
            <ErrorText error={turn.error} />
            {turn.done || turn.toolCalls.length ? <AnswerDetails turn={turn} /> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}

function AnswerDetails({ turn }: { turn: DebugTurn }) {
  const d = turn.done;
  return (
    <details className="ap-studio-details">
      <summary>
        {s.details}
        {d ? <span className="ap-muted"> · {d.model}{d.latencyMs !== undefined ? ` · ${s.ms(d.latencyMs)}` : ''}{d.usage ? ` · ${d.usage.totalTokens} tokens` : ''}</span> : null}
      </summary>
      <dl className="ap-facts">
        {d ? (
          <>
            <div className="ap-facts__row">
              <dt>{s.detailModel}</dt>
              <dd>
                {d.provider} · {d.model}
              </dd>
            </div>
            {d.usage ? (
              <div className="ap-facts__row">
                <dt>{s.detailTokens}</dt>
                <dd>{s.tokens(d.usage.promptTokens, d.usage.completionTokens, d.usage.totalTokens)}</dd>
              </div>
            ) : null}
            {typeof d.cost === 'number' ? (
              <div className="ap-facts__row">
                <dt>{s.detailCost}</dt>
                <dd>${d.cost.toFixed(6)}</dd>
              </div>
            ) : null}
            {d.latencyMs !== undefined ? (
              <div className="ap-facts__row">
                <dt>{s.detailLatency}</dt>
                <dd>{s.ms(d.latencyMs)}</dd>
              </div>
            ) : null}
          </>
        ) : null}
      </dl>
      {d?.sources?.length ? (
        <>
          <p className="ap-message__who">{s.detailSources}</p>
          <ol className="ap-studio-list">
            {d.sources.map((source, i) => (
              <li key={i}>
                <span className="ap-strong">{source.fileName}</span>
                {source.excerpt ? <span className="ap-muted ap-block">{source.excerpt}</span> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {turn.toolCalls.length ? (
        <>
          <p className="ap-message__who">{s.detailTools}</p>
          <ol className="ap-studio-list">
            {turn.toolCalls.map((call) => (
              <li key={call.id}>
                <span className="ap-strong">{call.name}</span>
                {call.durationMs !== undefined ? <span className="ap-muted"> · {s.toolTime(call.durationMs)}</span> : null}
                {call.isError ? <span className="ap-field__error"> · {s.toolError}</span> : null}
                <span className="ap-block ap-muted">{s.toolArgs}</span>
                <pre className="ap-studio-pre">{typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments, null, 2)}</pre>
                {call.result !== undefined ? (
                  <>
                    <span className="ap-block ap-muted">{s.toolResult}</span>
                    <pre className="ap-studio-pre">{call.result}</pre>
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </details>
  );
}
