import * as yup from 'yup';
import type { AnalyticsConversations, AnalyticsCosts, AnalyticsOverview, AnalyticsUsage, UsageFigures } from '../domain/analytics-views';
import type { PriceTable } from '../../ai/domain/model-catalog';
import { MODEL_PRICES_AS_OF } from '../../ai/domain/model-catalog';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import { parseTeamFilter } from '../../applications/use-cases/list-applications.use-case';
import type { ConversationSource } from '../../conversations/domain/conversation';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ValidationError } from '../../shared/errors';
import { str, validate } from '../../shared/validation';
import { utcDay, type AnalyticsScope, type KeyKind, type RollupRow } from '../domain/analytics';
import { costOf, priceOf, roundUsd } from '../domain/prices';
import type { AnalyticsStore } from '../ports/analytics-store.port';
import type { AnalyticsRecorder } from './analytics-recorder';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/** The longest span one read covers. */
export const MAX_RANGE_DAYS = 366;
/** The span of a read that names no `from`. */
export const DEFAULT_RANGE_DAYS = 30;

const query = yup.object({
  applicationId: str(),
  from: str().matches(DAY, 'from must be a date (YYYY-MM-DD)'),
  to: str().matches(DAY, 'to must be a date (YYYY-MM-DD)'),
});

const SOURCES: ConversationSource[] = ['dashboard', 'widget', 'api'];
export type { UsageFigures };

interface Period {
  applicationId: string | null;
  from: string;
  to: string;
}

type Priced = Omit<RollupRow, 'applicationId'> & { costUsd: number; priced: boolean };

/**
 * The analytics reads (`GET /api/analytics/overview|usage|conversations|costs`): one application of
 * the caller's, or all of their applications, over whole UTC days `from`…`to` (inclusive, default the
 * last 30). Messages, tokens, errors, API calls and widget loads come from the rollup; conversations
 * and their statistics from the stored conversations; costs from the price table at read time.
 */
export class GetAnalyticsUseCase {
  constructor(
    private readonly deps: {
      store: AnalyticsStore;
      applications: ApplicationRepository;
      recorder: AnalyticsRecorder;
      prices: PriceTable;
      clock: Clock;
    },
  ) {}

  async overview(input: Record<string, unknown>, actor: Actor): Promise<AnalyticsOverview> {
    const { period, scope } = await this.scopeOf(input, actor);
    const [rows, conversations] = await Promise.all([this.priced(scope), this.deps.store.conversationCounts(scope)]);
    const figures = this.figures(rows, conversations);
    return {
      ...period,
      pricesAsOf: MODEL_PRICES_AS_OF,
      totals: figures.total,
      byDay: figures.byDay,
      byProvider: figures.byProvider,
      bySource: figures.bySource,
    };
  }

  async usage(input: Record<string, unknown>, actor: Actor): Promise<AnalyticsUsage> {
    const { period, scope } = await this.scopeOf(input, actor);
    const [rows, conversations] = await Promise.all([this.priced(scope), this.deps.store.conversationCounts(scope)]);
    const figures = this.figures(rows, conversations);
    return { ...period, totals: figures.total, byDay: figures.byDay, byProvider: figures.byProvider, bySource: figures.bySource };
  }

  async conversations(input: Record<string, unknown>, actor: Actor): Promise<AnalyticsConversations> {
    const { period, scope } = await this.scopeOf(input, actor);
    const [slices, ratings, rows, tools] = await Promise.all([
      this.deps.store.conversationSlices(scope),
      this.deps.store.ratings(scope),
      this.deps.store.rollup(scope),
      this.deps.store.toolCalls(scope),
    ]);
    const stats = (list: typeof slices) => {
      const conversations = list.reduce((n, s) => n + s.conversations, 0);
      const messages = list.reduce((n, s) => n + s.messages, 0);
      const seconds = list.reduce((n, s) => n + s.durationSeconds, 0);
      return {
        conversations,
        messages,
        averageMessages: conversations ? round2(messages / conversations) : 0,
        longestMessages: list.reduce((n, s) => Math.max(n, s.longestMessages), 0),
        averageDurationSeconds: conversations ? round2(seconds / conversations) : 0,
        longestDurationSeconds: round2(list.reduce((n, s) => Math.max(n, s.longestSeconds), 0)),
      };
    };
    const rated = ratings.reduce((n, r) => n + r.count, 0);
    const distribution: Record<string, number> = { '1': 0, '2': 0, '3': 0, '4': 0, '5': 0 };
    for (const r of ratings) distribution[String(r.rating)] = r.count;
    const days = [...new Set(slices.map((s) => s.day))].sort();
    const providers = new Map<string, { answers: number; completionTokens: number }>();
    for (const r of rows) {
      const p = providers.get(r.provider) ?? { answers: 0, completionTokens: 0 };
      p.answers += r.messagesReceived;
      p.completionTokens += r.completionTokens;
      providers.set(r.provider, p);
    }
    return {
      ...period,
      totals: {
        ...stats(slices),
        ratings: { count: rated, average: rated ? round2(ratings.reduce((n, r) => n + r.rating * r.count, 0) / rated) : null, distribution },
      },
      byDay: days.map((day) => ({ day, ...stats(slices.filter((s) => s.day === day)) })),
      bySource: SOURCES.map((source) => ({ source, ...stats(slices.filter((s) => s.source === source)) })),
      byProvider: [...providers]
        .filter(([, p]) => p.answers > 0)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([provider, p]) => ({ provider, answers: p.answers, averageAnswerTokens: round2(p.completionTokens / p.answers) })),
      // The tools the model called (docs/tools.md): calls, failures and average time per tool.
      byTool: tools,
    };
  }

  async costs(input: Record<string, unknown>, actor: Actor): Promise<AnalyticsCosts> {
    const { period, scope } = await this.scopeOf(input, actor);
    const rows = await this.priced(scope);
    const split = (list: Priced[]) => {
      const of = (kind: KeyKind) => roundUsd(list.filter((r) => r.keyKind === kind).reduce((n, r) => n + r.costUsd, 0));
      return { estimatedCostUsd: roundUsd(list.reduce((n, r) => n + r.costUsd, 0)), ownKeyCostUsd: of('own'), platformKeyCostUsd: of('platform') };
    };
    const models = new Map<string, Priced[]>();
    for (const r of rows) {
      if (r.promptTokens + r.completionTokens === 0) continue;
      const id = JSON.stringify([r.provider, r.model, r.keyKind]);
      models.set(id, [...(models.get(id) ?? []), r]);
    }
    const days = [...new Set(rows.map((r) => r.day))].sort();
    const providers = [...new Set(rows.map((r) => r.provider))].sort();
    return {
      ...period,
      pricesAsOf: MODEL_PRICES_AS_OF,
      totals: { ...split(rows), unpricedTokens: rows.filter((r) => !r.priced).reduce((n, r) => n + r.promptTokens + r.completionTokens, 0) },
      byModel: [...models.values()]
        .map((list) => {
          const first = list[0]!;
          const promptTokens = list.reduce((n, r) => n + r.promptTokens, 0);
          const completionTokens = list.reduce((n, r) => n + r.completionTokens, 0);
          return {
            provider: first.provider,
            model: first.model,
            keyKind: first.keyKind,
            promptTokens,
            completionTokens,
            price: priceOf(this.deps.prices, first.provider, first.model) ?? null,
            estimatedCostUsd: roundUsd(list.reduce((n, r) => n + r.costUsd, 0)),
          };
        })
        .sort((a, b) => b.estimatedCostUsd - a.estimatedCostUsd || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model) || a.keyKind.localeCompare(b.keyKind)),
      byDay: days.map((day) => ({ day, ...split(rows.filter((r) => r.day === day)) })),
      byProvider: providers.map((provider) => ({ provider, ...split(rows.filter((r) => r.provider === provider)) })),
      bySource: SOURCES.map((source) => ({ source, ...split(rows.filter((r) => r.source === source)) })),
    };
  }

  /**
   * Validates the query, checks the caller may read the application (or takes every application they see: their own
   * and their teams', narrowed by `teamId`) and writes this process's pending counts.
   */
  private async scopeOf(input: Record<string, unknown>, actor: Actor): Promise<{ period: Period; scope: AnalyticsScope }> {
    const one = (v: unknown) => (Array.isArray(v) ? v[0] : v === '' ? undefined : v);
    const q = await validate(query, { applicationId: one(input.applicationId), from: one(input.from), to: one(input.to) });
    const today = utcDay(this.deps.clock.now());
    const to = q.to ?? today;
    const toMs = dayStart(to, 'to');
    const from = q.from ?? utcDay(new Date(toMs - (DEFAULT_RANGE_DAYS - 1) * DAY_MS));
    const fromMs = dayStart(from, 'from');
    if (fromMs > toMs) throw ValidationError.field('from', 'from must not be after to');
    if ((toMs - fromMs) / DAY_MS + 1 > MAX_RANGE_DAYS) throw ValidationError.field('from', `from and to may span at most ${MAX_RANGE_DAYS} days`);
    let applicationIds: string[];
    let applicationId: string | null = null;
    if (q.applicationId !== undefined) {
      const app = await findOwnedApplication(this.deps.applications, q.applicationId, actor, 'read');
      applicationIds = [app.id];
      applicationId = app.id;
    } else {
      applicationIds = await this.deps.store.applicationsOf(actor.userId, parseTeamFilter(one(input.teamId)));
    }
    // This process's counts are written first, so a caller sees the turns it just had.
    await this.deps.recorder.flush().catch(() => undefined);
    return { period: { applicationId, from, to }, scope: { applicationIds, from: new Date(fromMs), to: new Date(toMs + DAY_MS) } };
  }

  private async priced(scope: AnalyticsScope): Promise<Priced[]> {
    return (await this.deps.store.rollup(scope)).map((r) => {
      const price = priceOf(this.deps.prices, r.provider, r.model);
      return { ...r, costUsd: price ? costOf(price, r.promptTokens, r.completionTokens) : 0, priced: price !== undefined || r.promptTokens + r.completionTokens === 0 };
    });
  }

  private figures(rows: Priced[], conversations: Array<{ day: string; source: ConversationSource; conversations: number }>) {
    const sum = (list: Priced[], convs: number): UsageFigures => {
      const f = {
        conversations: convs,
        messagesSent: list.reduce((n, r) => n + r.messagesSent, 0),
        messagesReceived: list.reduce((n, r) => n + r.messagesReceived, 0),
        promptTokens: list.reduce((n, r) => n + r.promptTokens, 0),
        completionTokens: list.reduce((n, r) => n + r.completionTokens, 0),
        errors: list.reduce((n, r) => n + r.errors, 0),
        apiCalls: list.reduce((n, r) => n + r.apiCalls, 0),
        widgetLoads: list.reduce((n, r) => n + r.widgetLoads, 0),
        estimatedCostUsd: roundUsd(list.reduce((n, r) => n + r.costUsd, 0)),
        unpricedTokens: list.filter((r) => !r.priced).reduce((n, r) => n + r.promptTokens + r.completionTokens, 0),
      };
      return {
        ...f,
        messages: f.messagesSent + f.messagesReceived,
        totalTokens: f.promptTokens + f.completionTokens,
        errorRate: f.messagesSent ? Math.round((f.errors / f.messagesSent) * 10_000) / 10_000 : 0,
      };
    };
    const convs = (pick: (c: (typeof conversations)[number]) => boolean) => conversations.filter(pick).reduce((n, c) => n + c.conversations, 0);
    const days = [...new Set([...rows.map((r) => r.day), ...conversations.map((c) => c.day)])].sort();
    const providers = [...new Set(rows.map((r) => r.provider))].sort();
    return {
      total: sum(rows, convs(() => true)),
      byDay: days.map((day) => ({ day, ...sum(rows.filter((r) => r.day === day), convs((c) => c.day === day)) })),
      // A conversation may change providers between turns, so it is counted by day and source only.
      byProvider: providers.map((provider) => {
        const { conversations: _none, ...rest } = sum(rows.filter((r) => r.provider === provider), 0);
        return { provider, ...rest };
      }),
      bySource: SOURCES.map((source) => ({ source, ...sum(rows.filter((r) => r.source === source), convs((c) => c.source === source)) })),
    };
  }
}

function dayStart(day: string, field: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(ms) || utcDay(new Date(ms)) !== day) throw ValidationError.field(field, `${field} must be a real date (YYYY-MM-DD)`);
  return ms;
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
