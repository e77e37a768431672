import { Wrench } from 'lucide-react';
import { formatArguments, formatDuration } from './format';
import { chatStrings as s } from './strings';
import type { ToolCallView } from './types';

/** Arguments on one line for the block's summary, cut to stay readable. */
const inline = (args: unknown): string => {
  const text = args === undefined ? '' : formatArguments(args, 0);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/**
 * One tool call of an answer as one collapsible block: the tool's name and arguments in its summary, its
 * arguments, result or error and time inside. Everything the model or the tool said is shown as text.
 */
export function ToolCallBlock({ call, running }: { call: ToolCallView; running?: boolean }) {
  const state = call.result ? (call.result.isError ? s.toolError : s.toolDone) : running ? s.toolRunning : null;
  return (
    <details className={`ap-tool-call${call.result?.isError ? ' ap-tool-call--error' : ''}`}>
      <summary>
        <Wrench aria-hidden size={14} />
        <span className="ap-visually-hidden">{s.toolCall}: </span>
        <code className="ap-tool-call__name">{call.name}</code>
        <code className="ap-tool-call__args">({inline(call.arguments)})</code>
        {state ? <span className="ap-muted"> · {state}</span> : null}
        {call.durationMs !== undefined ? <span className="ap-muted"> · {formatDuration(call.durationMs)}</span> : null}
      </summary>
      <div className="ap-tool-call__body">
        <p className="ap-message__who">{s.toolArguments}</p>
        <pre>{formatArguments(call.arguments)}</pre>
        <p className="ap-message__who">{call.result?.isError ? s.toolErrorResult : s.toolResult}</p>
        {call.result ? <pre>{call.result.content}</pre> : <p className="ap-muted">{s.toolNoResult}</p>}
      </div>
    </details>
  );
}
