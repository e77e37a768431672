import type { PriceTable } from '../../ai/domain/model-catalog';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import { answerCost } from '../../conversations/domain/answer-cost';
import type { Actor } from '../../shared/actor';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { roundUsd } from '../../analytics/domain/prices';
import type { TraceReader } from '../../traces/domain/trace-view';
import {
  channelOf,
  endUserOf,
  LOG_CHANNELS,
  RATING_FILTERS,
  type LogChannel,
  type LogConversationView,
  type LogFilter,
  type LogMessageView,
  type LogRow,
  type LogRowView,
  type RatingFilter,
} from '../domain/logs';
import type { LogsStore } from '../ports/logs-store.port';

export interface LogsDeps {
  applications: ApplicationRepository;
  store: LogsStore;
  traces: TraceReader;
  prices: PriceTable;
}

/** Longest text search, in characters. */
const MAX_SEARCH = 200;

/**
 * `GET /api/applications/:appId/logs`: the application's conversations from every channel, newest activity
 * first (docs/logs.md). Team roles apply (`read`); another user's application is a 404.
 */
export class ListLogsUseCase {
  constructor(private readonly deps: LogsDeps) {}

  async execute(applicationId: string, query: Record<string, unknown>, actor: Actor): Promise<Page<LogRowView>> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    const page = parsePageRequest({ page: single(query.page, 'page'), limit: single(query.limit, 'limit') });
    const filter = parseLogFilter(query);
    const { items, total } = await this.deps.store.list(app.id, filter, offsetOf(page), page.limit);
    return { data: items.map((r) => toRowView(r, this.deps.prices)), total, page: page.page, limit: page.limit };
  }
}

/**
 * `GET /api/applications/:appId/logs/:conversationId`: one conversation's messages, each answer with its trace,
 * sources, tool calls, tokens, cost and rating. A conversation of another application is a 404.
 */
export class GetLogConversationUseCase {
  constructor(private readonly deps: LogsDeps) {}

  async execute(applicationId: string, conversationId: string, actor: Actor): Promise<LogConversationView> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    if (!isUuid(conversationId)) throw new NotFoundError('Conversation');
    const row = await this.deps.store.conversation(app.id, conversationId);
    if (!row) throw new NotFoundError('Conversation');
    const messages = await this.deps.store.messages(row.id);
    const answers = messages.filter((m) => m.role === 'assistant').map((m) => m.id);
    const traces = answers.length ? await this.deps.traces.forMessages(answers) : new Map();
    return {
      id: row.id,
      title: row.title,
      channel: channelOf(row.source, row.apiKeyId),
      endUser: endUserOf(row.source, row.apiKeyId, row.apiKeyName),
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      lastActivityAt: row.lastActivityAt.toISOString(),
      messages: messages.map(
        (m): LogMessageView => ({
          id: m.id,
          role: m.role,
          content: m.content,
          status: m.status,
          provider: m.provider,
          model: m.model,
          usage: m.usage,
          latencyMs: m.latencyMs,
          error: m.error,
          sources: m.sources ?? [],
          toolCalls: m.toolCalls ?? [],
          toolCallId: m.toolCallId ?? null,
          toolName: m.toolName ?? null,
          isError: m.isError === true,
          rating: m.rating,
          cost: m.role === 'assistant' ? answerCost(this.deps.prices, m) : null,
          answeredByAnnotationId: m.answeredByAnnotationId,
          annotationId: m.annotationId,
          trace: traces.get(m.id) ?? null,
          createdAt: m.createdAt.toISOString(),
        }),
      ),
    };
  }
}

function toRowView(r: LogRow, prices: PriceTable): LogRowView {
  let prompt = 0;
  let completion = 0;
  let cost: number | null = null;
  for (const u of r.usage) {
    prompt += u.promptTokens;
    completion += u.completionTokens;
    const c = answerCost(prices, { provider: u.provider, model: u.model, usage: { promptTokens: u.promptTokens, completionTokens: u.completionTokens, totalTokens: u.promptTokens + u.completionTokens } });
    if (c !== null) cost = (cost ?? 0) + c;
  }
  return {
    id: r.id,
    title: r.title,
    channel: channelOf(r.source, r.apiKeyId),
    endUser: endUserOf(r.source, r.apiKeyId, r.apiKeyName),
    firstMessage: r.firstMessage,
    messageCount: r.messageCount,
    tokens: { prompt, completion, total: prompt + completion },
    cost: cost === null ? null : roundUsd(cost),
    rating: { up: r.ratingUp, down: r.ratingDown, average: r.ratingAverage },
    failedAnswers: r.failedAnswers,
    toolCalls: r.toolCalls,
    createdAt: r.createdAt.toISOString(),
    lastActivityAt: r.lastActivityAt.toISOString(),
  };
}

/** Reads the list's filters from the query (`channel`, `from`, `to`, `rating`, `errors`, `tools`, `q`); a bad one is a 400 naming it. */
export function parseLogFilter(query: Record<string, unknown>): LogFilter {
  const filter: LogFilter = {};
  const channel = single(query.channel, 'channel');
  if (channel !== undefined && channel !== '') {
    const channels = channel.split(',').map((c) => c.trim());
    for (const c of channels) {
      if (!(LOG_CHANNELS as readonly string[]).includes(c)) throw ValidationError.field('channel', `channel must be one or more of ${LOG_CHANNELS.join(', ')}, separated by commas`);
    }
    filter.channels = [...new Set(channels)] as LogChannel[];
  }
  const from = time(query.from, 'from');
  const to = time(query.to, 'to');
  if (from && to && from.getTime() > to.getTime()) throw ValidationError.field('from', 'from must not be after to');
  if (from) filter.from = from;
  if (to) filter.to = to;
  const rating = single(query.rating, 'rating');
  if (rating !== undefined && rating !== '') {
    if (!(RATING_FILTERS as readonly string[]).includes(rating)) throw ValidationError.field('rating', `rating must be one of ${RATING_FILTERS.join(', ')}`);
    filter.rating = rating as RatingFilter;
  }
  const errors = flag(query.errors, 'errors');
  if (errors !== undefined) filter.errors = errors;
  const tools = flag(query.tools, 'tools');
  if (tools !== undefined) filter.tools = tools;
  const q = single(query.q, 'q')?.trim();
  if (q) {
    if (q.length > MAX_SEARCH) throw ValidationError.field('q', `q must be at most ${MAX_SEARCH} characters`);
    filter.search = q;
  }
  return filter;
}

function single(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw ValidationError.field(name, `${name} must be given once`);
  return value;
}

function time(value: unknown, name: string): Date | undefined {
  const text = single(value, name);
  if (text === undefined || text === '') return undefined;
  const at = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/.test(text) ? new Date(text) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw ValidationError.field(name, `${name} must be a date or a date and time (ISO 8601)`);
  return at;
}

function flag(value: unknown, name: string): boolean | undefined {
  const text = single(value, name);
  if (text === undefined || text === '') return undefined;
  if (text !== 'true' && text !== 'false') throw ValidationError.field(name, `${name} must be true or false`);
  return text === 'true';
}

/** A trace reader that finds nothing: the logs show answers without traces where no traces are recorded. */
export const noTraces: TraceReader = { forMessages: async () => new Map() };
