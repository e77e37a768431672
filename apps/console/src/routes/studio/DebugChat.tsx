import { RotateCcw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/Button';
import { Composer } from '../../components/chat/Composer';
import { ChatTranscript } from '../../components/chat/ChatTranscript';
import { applyAnswerEvent, streamingAnswer } from '../../components/chat/transcript';
import type { AnswerEntry, TranscriptEntry } from '../../components/chat/types';
import { Field } from '../../components/Field';
import { ErrorText } from '../../components/States';
import { ApiError } from '../../lib/errors';
import { streamDebug } from './debug-stream';
import type { StudioConfig } from './queries';
import { s } from './strings';

/**
 * The debug chat beside the editor: each turn runs on the configuration on screen (saved or not) with the
 * variables' values typed here, through the platform's own chat path; end users are not affected.
 */
/** One question and its answer in the debug chat (the answer as the shared transcript shows it). */
interface DebugTurn {
  question: string;
  answer: AnswerEntry;
}

export function DebugChat({ appId, config, variables }: { appId: string; config: Partial<StudioConfig>; variables: string[] }) {
  const [turns, setTurns] = useState<DebugTurn[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [conversationId, setConversationId] = useState<string | undefined>();
  const [values, setValues] = useState<Record<string, string>>({});
  const [message, setMessage] = useState('');
  const abort = useRef<AbortController | null>(null);
  const streaming = turns.at(-1)?.answer.status === 'streaming';
  const entries: TranscriptEntry[] = turns.flatMap((t) => [{ kind: 'user' as const, key: `${t.answer.key}-q`, content: t.question }, t.answer]);
  useEffect(() => () => abort.current?.abort(), []);

  const update = (change: (t: DebugTurn) => DebugTurn) => setTurns((all) => all.map((t, i) => (i === all.length - 1 ? change(t) : t)));

  async function send() {
    const content = message.trim();
    if (!content || streaming) return;
    setMessage('');
    setError(null);
    setTurns((all) => [...all, { question: content, answer: streamingAnswer(`debug-${all.length}`) }]);
    const controller = new AbortController();
    abort.current = controller;
    // A variable left empty here takes the draft's own value for end users.
    const given = Object.fromEntries(variables.filter((v) => (values[v] ?? '') !== '').map((v) => [v, values[v]!]));
    try {
      for await (const event of streamDebug(appId, { content, conversationId, variables: given, config }, controller.signal)) {
        if (event.type === 'done') setConversationId(event.conversationId);
        if (event.type === 'error') setError(new ApiError(event.statusCode ?? 502, event.message));
        update((t) => ({ ...t, answer: applyAnswerEvent(t.answer, event) }));
      }
    } catch (failure) {
      setMessage((m) => m || content); // a refused message is not lost
      setError(failure);
      update((t) => ({ ...t, answer: { ...t.answer, status: t.answer.content ? 'stopped' : 'failed' } }));
    } finally {
      // Stopped: the partial answer stays on screen, marked.
      update((t) => (t.answer.status === 'streaming' ? { ...t, answer: { ...t.answer, status: t.answer.content || t.answer.toolCalls.length ? 'stopped' : 'failed' } } : t));
      abort.current = null;
    }
  }

  return (
    <section className="ap-studio-chat" aria-labelledby="studio-debug-title">
      <div className="ap-studio-chat__header">
        <h2 id="studio-debug-title" className="ap-side-title">
          {s.debug}
        </h2>
        <Button
          variant="ghost"
          disabled={streaming || !turns.length}
          onClick={() => {
            setTurns([]);
            setError(null);
            setConversationId(undefined);
          }}
        >
          <RotateCcw aria-hidden size={16} />
          {s.restart}
        </Button>
      </div>
      <p className="ap-muted">{s.debugHint}</p>
      {variables.length ? (
        <fieldset className="ap-studio-fieldset">
          <legend>{s.variables}</legend>
          {variables.map((name) => (
            <Field
              key={name}
              label={s.variableInput(name)}
              value={values[name] ?? ''}
              placeholder={config.variables?.[name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
            />
          ))}
        </fieldset>
      ) : null}
      {!turns.length && config.openingMessage ? (
        <div className="ap-message ap-message--assistant">
          <p className="ap-message__who">{s.assistant}</p>
          <div className="ap-message__body">{config.openingMessage}</div>
        </div>
      ) : null}
      {!turns.length && config.suggestedQuestions?.length ? (
        <ul className="ap-studio-suggestions" aria-label={s.suggestedQuestions}>
          {config.suggestedQuestions.map((q) => (
            <li key={q}>
              <Button variant="ghost" onClick={() => setMessage(q)}>
                {q}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <ChatTranscript entries={entries} empty={s.emptyChat} />
      <ErrorText error={error} />
      <Composer id="studio-message" label={s.message} rows={2} value={message} onChange={setMessage} onSend={() => void send()} onStop={() => abort.current?.abort()} streaming={streaming} sendLabel={s.send} stopLabel={s.stop} />
    </section>
  );
}
