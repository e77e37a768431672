import { useQueryClient } from '@tanstack/react-query';
import { Pencil, Plus } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useApplicationChoices } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { Composer } from '../../components/chat/Composer';
import { ChatTranscript } from '../../components/chat/ChatTranscript';
import { applyAnswerEvent, streamingAnswer, transcriptOf } from '../../components/chat/transcript';
import type { AnswerEntry, StoredMessage, TranscriptEntry } from '../../components/chat/types';
import { streamChat } from '../../lib/chat-stream';
import { ApiError } from '../../lib/errors';
import { useModelCatalogue } from '../../lib/model-catalogue';
import { useConversation, useConversations, useRateAnswer, useRenameConversation, useStartConversation } from './queries';
import { s } from './strings';

/** The turn on screen until the stored conversation holds it: the question and the answer as it streams. */
interface Pending {
  question: string;
  answer: AnswerEntry;
  error: unknown;
  /** How many messages the conversation held before this turn: the stored turn replaces this one once it is read back. */
  before: number;
  /** The conversation it belongs to, once known: opening another one leaves it behind. */
  conversationId?: string;
}

/**
 * Chat with an application as its owner: streamed answers with their tool calls (one block each), sources,
 * model, tokens, cost and time; ratings; past conversations by title. Stop keeps the partial answer.
 */
export default function Playground() {
  const { appId, conversationId } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const apps = useApplicationChoices();
  const providers = useModelCatalogue(apps.data ? (apps.data.find((app) => app.id === appId)?.teamId ?? null) : undefined);
  const conversations = useConversations(appId);
  const conversation = useConversation(conversationId);
  const start = useStartConversation();
  const rate = useRateAnswer(conversationId);
  const rename = useRenameConversation(appId);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [provider, setProvider] = useState('');
  const [model, setModel] = useState('');
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [ratings, setRatings] = useState<Record<string, number>>({});
  const abort = useRef<AbortController | null>(null);
  const transcriptEnd = useRef<HTMLLIElement>(null);
  const stored = conversationId ? (conversation.data?.messages ?? []) : [];

  // Without an application in the address, the first one is opened.
  useEffect(() => {
    if (!appId && apps.data?.length) navigate(`/playground/${apps.data[0]!.id}`, { replace: true });
  }, [appId, apps.data, navigate]);
  useEffect(() => {
    transcriptEnd.current?.scrollIntoView({ block: 'end' });
  }, [pending?.answer, conversation.data?.messages?.length]);
  // A finished or stopped turn stays on screen until the stored conversation holds its answer (a stopped
  // answer is stored as interrupted once the server sees the stream end), then the stored one shows.
  useEffect(() => {
    if (!pending || pending.answer.status === 'streaming' || pending.error) return;
    if (stored.length >= pending.before + 2 && stored.at(-1)?.role === 'assistant') setPending(null);
  }, [pending, stored]);
  useEffect(() => {
    setRenaming(null);
    rename.reset();
  }, [conversationId]);
  useEffect(() => {
    if (pending?.conversationId && pending.conversationId !== conversationId && pending.answer.status !== 'streaming') setPending(null);
  }, [pending, conversationId]);
  useEffect(() => {
    if (pending?.answer.status !== 'stopped' || !conversationId) return;
    const again = [400, 1200, 3000].map((ms) => setTimeout(() => void client.invalidateQueries({ queryKey: ['conversations', 'one', conversationId] }), ms));
    return () => again.forEach(clearTimeout);
  }, [pending?.answer.status, conversationId, client]);
  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );

  const models = useMemo(() => providers.data?.find((p) => p.id === provider)?.models ?? [], [providers.data, provider]);

  async function send() {
    const content = draft.trim();
    if (!content || !appId || pending?.answer.status === 'streaming') return;
    setPending({ question: content, answer: streamingAnswer('pending'), error: null, before: stored.length });
    setDraft('');
    const controller = new AbortController();
    abort.current = controller;
    const update = (change: (p: Pending) => Pending) => setPending((p) => p && change(p));
    try {
      let id = conversationId;
      if (!id) {
        id = (await start.mutateAsync(appId)).id!;
        navigate(`/playground/${appId}/${id}`, { replace: true });
      }
      const opened = id;
      update((p) => ({ ...p, conversationId: opened }));
      const body = { content, ...(provider ? { provider } : {}), ...(provider && model ? { model } : {}) };
      for await (const event of streamChat(id, body, controller.signal)) {
        if (event.type === 'error') update((p) => ({ ...p, answer: applyAnswerEvent(p.answer, event), error: new ApiError(event.statusCode ?? 502, event.message) }));
        else update((p) => ({ ...p, answer: applyAnswerEvent(p.answer, event) }));
      }
      // Stopped: the partial answer stays, marked, until the stored (interrupted) one replaces it.
      if (controller.signal.aborted) update((p) => (p.answer.status === 'streaming' ? { ...p, answer: { ...p.answer, status: 'stopped' } } : p));
      else update((p) => (p.answer.status === 'streaming' ? { ...p, answer: { ...p.answer, status: 'complete' } } : p));
      await Promise.all([client.invalidateQueries({ queryKey: ['conversations', 'one', id] }), client.invalidateQueries({ queryKey: ['conversations', 'list', appId] })]);
    } catch (error) {
      setDraft((d) => d || content); // a refused message is not lost
      update((p) => ({ ...p, answer: { ...p.answer, status: p.answer.content ? 'stopped' : 'failed' }, error }));
    } finally {
      abort.current = null;
    }
  }

  if (apps.isPending) return <Loading />;
  if (apps.isError) return <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />;
  if (!apps.data.length)
    return (
      <>
        <PageHeader title={s.title} description={s.description} />
        <EmptyState title={s.noApplications} action={<Link className="ap-button ap-button--primary" to="/applications">{s.createApplication}</Link>}>
          {s.noApplicationsBody}
        </EmptyState>
      </>
    );

  // While a turn is on screen, what the server stored of it meanwhile is not shown twice.
  const entries: TranscriptEntry[] = transcriptOf((pending ? stored.slice(0, pending.before) : stored) as StoredMessage[]);
  if (pending) entries.push({ kind: 'user', key: 'pending-question', content: pending.question }, ...(pending.answer.content || pending.answer.toolCalls.length || pending.answer.status === 'streaming' ? [pending.answer] : []));
  const storedRatings = Object.fromEntries(stored.filter((m) => m.rating).map((m) => [m.id!, m.rating!]));
  const streaming = pending?.answer.status === 'streaming';
  // The link to provider keys only where a key is what lifts the limit (the 402 says so); a monthly message limit is not.
  const needsKey = pending?.error instanceof ApiError && pending.error.status === 402 && /\bProvider keys\b/.test(pending.error.message);

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <div className="ap-playground">
        <aside className="ap-playground__side">
          <div className="ap-field">
            <label htmlFor="pg-app">{s.application}</label>
            <select id="pg-app" className="ap-select" value={appId ?? ''} onChange={(e) => navigate(`/playground/${e.target.value}`)}>
              {apps.data.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
          <Button onClick={() => navigate(`/playground/${appId}`)} disabled={!conversationId}>
            <Plus aria-hidden size={16} />
            {s.newConversation}
          </Button>
          <h2 className="ap-side-title">{s.conversations}</h2>
          {conversations.isPending ? (
            <Loading />
          ) : conversations.isError ? (
            <ErrorText error={conversations.error} />
          ) : conversations.data.length ? (
            <nav aria-label={s.conversations}>
              <ul className="ap-conversations">
                {conversations.data.map((c) => (
                  <li key={c.id}>
                    <Link to={`/playground/${appId}/${c.id}`} aria-current={c.id === conversationId ? 'page' : undefined} className="ap-nav-link">
                      {c.title || s.untitled}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : (
            <p className="ap-muted">{s.noConversations}</p>
          )}
        </aside>
        <section className="ap-playground__chat" aria-label={s.transcript}>
          <div className="ap-actions">
            <div className="ap-field">
              <label htmlFor="pg-provider">{s.provider}</label>
              <select
                id="pg-provider"
                className="ap-select"
                value={provider}
                onChange={(e) => {
                  setProvider(e.target.value);
                  setModel(providers.data?.find((p) => p.id === e.target.value)?.defaultModel ?? '');
                }}
              >
                <option value="">{s.applicationDefault}</option>
                {providers.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.id} {p.platformKeyConfigured ? `(${s.platformKey})` : ''}
                  </option>
                ))}
              </select>
            </div>
            <div className="ap-field">
              <label htmlFor="pg-model">{s.model}</label>
              <select id="pg-model" className="ap-select" value={model} disabled={!provider} onChange={(e) => setModel(e.target.value)}>
                {!provider ? <option value="">{s.applicationDefault}</option> : null}
                {models.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.id}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {conversationId && conversation.data ? (
            renaming !== null ? (
              <form
                className="ap-inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  rename.mutate({ id: conversationId, title: renaming }, { onSuccess: () => setRenaming(null) });
                }}
              >
                <div className="ap-field">
                  <label htmlFor="pg-title">{s.conversationTitle}</label>
                  <input id="pg-title" value={renaming} aria-invalid={rename.error ? true : undefined} maxLength={200} onChange={(e) => setRenaming(e.target.value)} aria-describedby={rename.error ? 'pg-title-error' : undefined} />
                  {rename.error ? (
                    <p id="pg-title-error" className="ap-field__error" role="alert">
                      {rename.error.message}
                    </p>
                  ) : null}
                </div>
                <Button type="submit" variant="primary" busy={rename.isPending} disabled={!renaming.trim()}>
                  {s.saveTitle}
                </Button>
                <Button onClick={() => setRenaming(null)}>{s.cancel}</Button>
              </form>
            ) : (
              <div className="ap-chat-title">
                <h2>{conversation.data.title}</h2>
                <Button variant="ghost" aria-label={s.renameLabel(conversation.data.title ?? '')} onClick={() => setRenaming(conversation.data.title ?? '')}>
                  <Pencil aria-hidden size={16} />
                  {s.rename}
                </Button>
              </div>
            )
          ) : null}
          {conversationId && conversation.isError ? <ErrorState error={conversation.error} onRetry={() => void conversation.refetch()} /> : null}
          <ChatTranscript
            ref={transcriptEnd}
            entries={entries}
            empty={s.emptyChat}
            ratings={{ ...storedRatings, ...ratings }}
            rateBusy={rate.isPending}
            onRate={(messageId, rating) => rate.mutate({ messageId, rating }, { onSuccess: () => setRatings((r) => ({ ...r, [messageId]: rating })) })}
          />
          <ErrorText error={pending?.error ?? rate.error} />
          {needsKey ? (
            <p>
              <Link to="/provider-keys">{s.saveKey}</Link>
            </p>
          ) : null}
          <Composer id="pg-message" label={s.message} value={draft} onChange={setDraft} onSend={() => void send()} onStop={() => abort.current?.abort()} streaming={streaming} sendLabel={s.send} stopLabel={s.stop} />
        </section>
      </div>
    </>
  );
}
