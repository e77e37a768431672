import { useQueryClient } from '@tanstack/react-query';
import { Plus, Send, Square } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useApplicationChoices } from '../../components/ApplicationScope';
import { Button } from '../../components/Button';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { streamChat, type ChatEvent } from '../../lib/chat-stream';
import { ApiError } from '../../lib/errors';
import { MessageView } from './MessageView';
import { useConversation, useConversations, useProviders, useRateAnswer, useStartConversation } from './queries';
import { s } from './strings';

type Done = Extract<ChatEvent, { type: 'done' }>;
interface Pending {
  question: string;
  answer: string;
  streaming: boolean;
  error: unknown;
  done?: Done;
}

/** Chat with an application as its owner: streamed answers, citations, ratings, past conversations. */
export default function Playground() {
  const { appId, conversationId } = useParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const apps = useApplicationChoices();
  const providers = useProviders();
  const conversations = useConversations(appId);
  const conversation = useConversation(conversationId);
  const start = useStartConversation();
  const rate = useRateAnswer(conversationId);
  const [provider, setProvider] = useState('');
  const [model, setModel] = useState('');
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState<Pending | null>(null);
  const [ratings, setRatings] = useState<Record<string, number>>({});
  const abort = useRef<AbortController | null>(null);
  const transcriptEnd = useRef<HTMLLIElement>(null);

  // Without an application in the address, the first one is opened.
  useEffect(() => {
    if (!appId && apps.data?.length) navigate(`/playground/${apps.data[0]!.id}`, { replace: true });
  }, [appId, apps.data, navigate]);
  useEffect(() => {
    transcriptEnd.current?.scrollIntoView({ block: 'end' });
  }, [pending?.answer, conversation.data?.messages?.length]);
  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );

  const models = useMemo(() => providers.data?.find((p) => p.id === provider)?.models ?? [], [providers.data, provider]);

  async function send() {
    const content = draft.trim();
    if (!content || !appId || pending?.streaming) return;
    setPending({ question: content, answer: '', streaming: true, error: null });
    setDraft('');
    const controller = new AbortController();
    abort.current = controller;
    try {
      let id = conversationId;
      if (!id) {
        id = (await start.mutateAsync(appId)).id!;
        navigate(`/playground/${appId}/${id}`, { replace: true });
      }
      const body = { content, ...(provider ? { provider } : {}), ...(provider && model ? { model } : {}) };
      for await (const event of streamChat(id, body, controller.signal)) {
        if (event.type === 'chunk') setPending((p) => p && { ...p, answer: p.answer + event.content });
        else if (event.type === 'done') setPending((p) => p && { ...p, answer: event.fullResponse, done: event });
        else if (event.type === 'error') setPending((p) => p && { ...p, error: new ApiError(event.statusCode ?? 502, event.message) });
      }
      await Promise.all([client.invalidateQueries({ queryKey: ['conversations', 'one', id] }), client.invalidateQueries({ queryKey: ['conversations', 'list', appId] })]);
      setPending((p) => (p && !p.error ? null : p && { ...p, streaming: false }));
    } catch (error) {
      setDraft((d) => d || content); // a refused message is not lost
      setPending((p) => p && { ...p, streaming: false, error });
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

  const messages = conversationId ? (conversation.data?.messages ?? []) : [];
  const needsKey = pending?.error instanceof ApiError && pending.error.status === 402;

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
          {conversationId && conversation.isError ? <ErrorState error={conversation.error} onRetry={() => void conversation.refetch()} /> : null}
          <ol className="ap-transcript" aria-live="polite">
            {!messages.length && !pending ? <li className="ap-muted ap-transcript__empty">{s.emptyChat}</li> : null}
            {messages.map((m) => (
              <MessageView
                key={m.id}
                role={m.role === 'user' ? 'user' : 'assistant'}
                content={m.content ?? ''}
                status={m.status}
                sources={m.sources}
                rating={ratings[m.id!]}
                rateBusy={rate.isPending}
                onRate={
                  m.role === 'assistant' && m.status === 'complete'
                    ? (rating) => rate.mutate({ messageId: m.id!, rating }, { onSuccess: () => setRatings((r) => ({ ...r, [m.id!]: rating })) })
                    : undefined
                }
              />
            ))}
            {pending ? (
              <>
                <MessageView role="user" content={pending.question} />
                {pending.answer || pending.streaming ? <MessageView role="assistant" content={pending.answer} streaming={pending.streaming} sources={pending.done?.sources} /> : null}
              </>
            ) : null}
            <li ref={transcriptEnd} aria-hidden className="ap-transcript__end" />
          </ol>
          <ErrorText error={pending?.error ?? rate.error} />
          {needsKey ? (
            <p>
              <Link to="/provider-keys">{s.saveKey}</Link>
            </p>
          ) : null}
          <form
            className="ap-composer"
            onSubmit={(e) => {
              e.preventDefault();
              void send();
            }}
          >
            <div className="ap-field">
              <label htmlFor="pg-message">{s.message}</label>
              <textarea
                id="pg-message"
                rows={3}
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) {
                    e.preventDefault();
                    void send();
                  }
                }}
              />
            </div>
            {pending?.streaming ? (
              <Button onClick={() => abort.current?.abort()}>
                <Square aria-hidden size={16} />
                {s.stop}
              </Button>
            ) : (
              <Button type="submit" variant="primary" disabled={!draft.trim()}>
                <Send aria-hidden size={16} />
                {s.send}
              </Button>
            )}
          </form>
        </section>
      </div>
    </>
  );
}
