import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/Button';
import { DataTable } from '../../components/DataTable';
import { Dialog } from '../../components/Dialog';
import { Field, TextArea } from '../../components/Field';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, ErrorState, ErrorText, Loading } from '../../components/States';
import { formatDateTime, formatNumber } from '../../lib/format';
import { PAGE_SIZE, useLogConversation, useLogs, useSaveAnnotation, type LogConversation, type LogFilters, type LogMessage, type LogRow } from './queries';
import { s } from './strings';
import { ToDatasetDialog } from './ToDatasetDialog';
import { TraceTree } from './TraceTree';

type Values = { channel: string; rating: string; errors: string; tools: string; from: string; to: string; q: string };
const KEYS = ['channel', 'rating', 'errors', 'tools', 'from', 'to', 'q'] as const;

const usd = (n: number | null | undefined): string => (n === null || n === undefined ? s.unknownCost : `$${n < 0.01 && n > 0 ? n.toFixed(6) : n.toFixed(4)}`);

/** `YYYY-MM-DD` as the start (from) or the end (to) of that day in the browser's time zone. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (end) d.setDate(d.getDate() + 1);
  return d.toISOString();
}

function endUserText(u: LogRow['endUser']): string {
  if (u?.kind === 'api_key') return s.endUser.apiKey(u.name ?? null);
  if (u?.kind === 'visitor') return s.endUser.visitor;
  if (u?.kind === 'workflow') return s.endUser.workflow;
  return s.endUser.console;
}

/** An application's Logs tab: its conversations from every channel with filters, or one of them with each answer's trace. */
export default function Logs({ applicationId }: { applicationId: string }) {
  const [params, setParams] = useSearchParams();
  const open = params.get('conversation');
  const close = () => {
    const next = new URLSearchParams(params);
    next.delete('conversation');
    setParams(next);
  };
  return (
    <div className="ap-stack">
      <PageHeader title={s.title} description={s.description} />
      {open ? <ConversationView appId={applicationId} conversationId={open} onBack={close} /> : <LogList appId={applicationId} />}
    </div>
  );
}

function LogList({ appId }: { appId: string }) {
  const [params, setParams] = useSearchParams();
  const values: Values = { channel: '', rating: '', errors: '', tools: '', from: '', to: '', q: '' };
  for (const k of KEYS) values[k] = params.get(`logs-${k}`) ?? '';
  const page = Math.max(1, Number(params.get('logs-page')) || 1);
  const from = dayBound(values.from, false);
  const to = dayBound(values.to, true);
  const filters: LogFilters = {
    ...(values.channel ? { channel: values.channel } : {}),
    ...(values.rating ? { rating: values.rating as LogFilters['rating'] } : {}),
    ...(values.errors ? { errors: values.errors as 'true' | 'false' } : {}),
    ...(values.tools ? { tools: values.tools as 'true' | 'false' } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(values.q.trim() ? { q: values.q.trim() } : {}),
  };
  const filtered = Object.keys(filters).length > 0;
  const list = useLogs(appId, filters, page);
  const form = useForm<Values>({ values });
  const setPage = (next: URLSearchParams) => setParams(next);
  const apply = form.handleSubmit((v) => {
    const next = new URLSearchParams(params);
    for (const k of KEYS) {
      next.delete(`logs-${k}`);
      if (v[k].trim()) next.set(`logs-${k}`, v[k].trim());
    }
    next.delete('logs-page');
    setPage(next);
  });
  const clear = () => {
    const next = new URLSearchParams(params);
    for (const k of [...KEYS, 'page']) next.delete(`logs-${k}`);
    setPage(next);
  };
  const goTo = (p: number) => {
    const next = new URLSearchParams(params);
    next.set('logs-page', String(p));
    setPage(next);
  };
  const openConversation = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('conversation', id);
    setPage(next);
  };

  let body;
  if (list.isPending) body = <Loading />;
  else if (list.isError) body = <ErrorState error={list.error} onRetry={() => void list.refetch()} />;
  else if (!list.data.items.length) body = filtered ? <EmptyState title={s.noMatch}>{s.noMatchBody}</EmptyState> : <EmptyState title={s.empty}>{s.emptyBody}</EmptyState>;
  else {
    body = (
      <>
        <DataTable
          aria-label={s.title}
          rows={list.data.items}
          rowKey={(r) => r.id!}
          columns={[
            {
              header: s.columns.firstMessage,
              rowHeader: true,
              cell: (r) => (
                <button type="button" className="ap-link-button" aria-label={s.open(r.title ?? '')} onClick={() => openConversation(r.id!)}>
                  {r.firstMessage ?? r.title}
                </button>
              ),
            },
            { header: s.columns.channel, cell: (r) => s.channels[r.channel ?? ''] ?? r.channel },
            { header: s.columns.endUser, cell: (r) => endUserText(r.endUser) },
            { header: s.columns.messages, cell: (r) => formatNumber(r.messageCount ?? 0) },
            { header: s.columns.tokens, cell: (r) => formatNumber(r.tokens?.total ?? 0) },
            { header: s.columns.cost, cell: (r) => usd(r.cost) },
            { header: s.columns.rating, cell: (r) => (r.rating?.up || r.rating?.down ? s.ratingValue(r.rating.up ?? 0, r.rating.down ?? 0) : s.noRating) },
            { header: s.columns.lastActivity, cell: (r) => (r.lastActivityAt ? formatDateTime(r.lastActivityAt) : '') },
          ]}
        />
        <Pager total={s.total(list.data.total)} count={list.data.total} page={page} pageSize={PAGE_SIZE} onPage={goTo} />
      </>
    );
  }

  return (
    <>
      <form className="ap-card ap-logs-filters" noValidate onSubmit={apply} aria-label={s.filters}>
        <Select id="logs-channel" label={s.channel} register={form.register('channel')} options={[['', s.anyChannel], ...Object.entries(s.channels)]} />
        <Select id="logs-rating" label={s.rating} register={form.register('rating')} options={[['', s.anyRating], ...Object.entries(s.ratings)]} />
        <Select id="logs-errors" label={s.errors} register={form.register('errors')} options={[['', s.either], ['true', s.withSome], ['false', s.withNone]]} />
        <Select id="logs-tools" label={s.tools} register={form.register('tools')} options={[['', s.either], ['true', s.usedTools], ['false', s.noTools]]} />
        <Field label={s.from} type="date" {...form.register('from')} />
        <Field label={s.to} type="date" {...form.register('to')} />
        <Field label={s.search} hint={s.searchHint} type="search" {...form.register('q')} />
        <div className="ap-actions">
          <Button type="submit" variant="primary">
            {s.apply}
          </Button>
          <Button onClick={clear}>{s.clear}</Button>
        </div>
      </form>
      {body}
    </>
  );
}

function Select({ id, label, register, options }: { id: string; label: string; register: ReturnType<ReturnType<typeof useForm<Values>>['register']>; options: Array<[string, string]> }) {
  return (
    <div className="ap-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="ap-select" {...register}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function ConversationView({ appId, conversationId, onBack }: { appId: string; conversationId: string; onBack: () => void }) {
  const conversation = useLogConversation(appId, conversationId);
  const [annotating, setAnnotating] = useState<{ message: LogMessage; question: string } | null>(null);
  const [toDataset, setToDataset] = useState<string | null>(null);
  let body;
  if (conversation.isPending) body = <Loading />;
  else if (conversation.isError) body = <ErrorState error={conversation.error} onRetry={() => void conversation.refetch()} />;
  else body = <Messages appId={appId} conversation={conversation.data} onAnnotate={(message, question) => setAnnotating({ message, question })} onToDataset={setToDataset} />;
  return (
    <>
      <div>
        <Button onClick={onBack}>{s.back}</Button>
      </div>
      {body}
      {toDataset ? <ToDatasetDialog appId={appId} source={{ messageId: toDataset }} onClose={() => setToDataset(null)} /> : null}
      {annotating ? <AnnotateDialog appId={appId} message={annotating.message} question={annotating.question} onClose={() => setAnnotating(null)} /> : null}
    </>
  );
}

function Messages({
  appId,
  conversation,
  onAnnotate,
  onToDataset,
}: {
  appId: string;
  conversation: LogConversation;
  onAnnotate: (message: LogMessage, question: string) => void;
  onToDataset: (messageId: string) => void;
}) {
  const save = useSaveAnnotation(appId);
  const [marked, setMarked] = useState<string | null>(null);
  const messages = conversation.messages ?? [];
  const questionBefore = (index: number) => [...messages.slice(0, index)].reverse().find((m) => m.role === 'user')?.content ?? '';
  return (
    <section className="ap-stack" aria-label={s.conversation.title(conversation.title ?? '')}>
      <h2 className="ap-logs-title">{s.conversation.title(conversation.title ?? '')}</h2>
      <p className="ap-muted">{s.conversation.meta(s.channels[conversation.channel ?? ''] ?? '', endUserText(conversation.endUser), conversation.createdAt ? formatDateTime(conversation.createdAt) : '')}</p>
      <ol className="ap-logs-messages">
        {messages.map((m, i) => (
          <li key={m.id} className={`ap-card ap-logs-message ap-logs-message--${m.role}`}>
            {m.role === 'user' ? <h3 className="ap-logs-role">{s.conversation.user}</h3> : null}
            {m.role === 'tool' ? <h3 className="ap-logs-role">{s.conversation.tool(m.toolName ?? '')}</h3> : null}
            {m.role === 'assistant' ? <h3 className="ap-logs-role">{s.conversation.assistant}</h3> : null}
            {m.content ? <p className="ap-logs-content">{m.content}</p> : null}
            {m.role === 'tool' && m.isError ? <p className="ap-error-text">{s.conversation.toolError}</p> : null}
            {m.status === 'failed' ? <p className="ap-error-text">{`${s.conversation.failed}${m.error ? `: ${m.error}` : ''}`}</p> : null}
            {m.status === 'interrupted' ? <p className="ap-muted">{s.conversation.interrupted}</p> : null}
            {m.role === 'assistant' ? (
              <>
                {m.toolCalls?.length ? (
                  <div>
                    <h4>{s.conversation.calls}</h4>
                    <ul>
                      {m.toolCalls.map((c) => (
                        <li key={c.id}>
                          <code>{`${c.name}(${JSON.stringify(c.arguments ?? {})})`}</code>
                        </li>
                      ))}
                    </ul>
                  </div>
                ) : null}
                {m.sources?.length ? (
                  <div>
                    <h4>{s.conversation.sources}</h4>
                    <ul>
                      {m.sources.map((src, k) => (
                        <li key={k}>{`${String(src.fileName ?? src.documentId ?? '')}${src.excerpt ? `: ${String(src.excerpt)}` : ''}`}</li>
                      ))}
                    </ul>
                  </div>
                ) : null}
                <p className="ap-muted ap-logs-facts">
                  {[
                    m.model,
                    m.usage ? s.conversation.tokens(m.usage.promptTokens ?? 0, m.usage.completionTokens ?? 0) : null,
                    m.latencyMs !== null && m.latencyMs !== undefined ? s.conversation.latency(m.latencyMs) : null,
                    m.cost !== null && m.cost !== undefined ? s.conversation.cost(usd(m.cost)) : null,
                    m.rating ? s.conversation.rated(m.rating) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </p>
                {m.answeredByAnnotationId ? <p className="ap-notice">{s.conversation.fromAnnotation}</p> : null}
                <TraceTree trace={m.trace} />
                {m.annotationId || marked === m.id ? (
                  <p className="ap-notice" role="status">
                    {marked === m.id ? s.conversation.markedGood : s.conversation.annotated}
                  </p>
                ) : null}
                {m.status !== 'failed' && m.content ? (
                  <div className="ap-actions">
                    {m.annotationId || marked === m.id ? null : (
                      <>
                        <Button
                          busy={save.isPending && save.variables?.body.messageId === m.id}
                          onClick={() => save.mutate({ body: { messageId: m.id! } }, { onSuccess: () => setMarked(m.id!) })}
                        >
                          {s.conversation.markGood}
                        </Button>
                        <Button onClick={() => onAnnotate(m, questionBefore(i))}>{s.conversation.annotate}</Button>
                      </>
                    )}
                    <Button onClick={() => onToDataset(m.id!)}>{s.conversation.toDataset}</Button>
                  </div>
                ) : null}
                {save.isError && save.variables?.body.messageId === m.id ? <ErrorText error={save.error} /> : null}
              </>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function AnnotateDialog({ appId, message, question, onClose }: { appId: string; message: LogMessage; question: string; onClose: () => void }) {
  const save = useSaveAnnotation(appId);
  const form = useForm<{ question: string; answer: string }>({ defaultValues: { question, answer: message.content ?? '' } });
  const submit = form.handleSubmit((v) => save.mutate({ body: { messageId: message.id!, question: v.question, answer: v.answer } }, { onSuccess: onClose }));
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={s.annotateDialog.title} description={s.annotateDialog.description}>
      <form className="ap-stack" noValidate onSubmit={submit}>
        <TextArea label={s.annotateDialog.question} rows={2} {...form.register('question')} />
        <TextArea label={s.annotateDialog.answer} rows={6} {...form.register('answer')} />
        <ErrorText error={save.error} />
        <div className="ap-actions">
          <Button type="submit" variant="primary" busy={save.isPending}>
            {s.annotateDialog.save}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
