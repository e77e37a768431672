import type { ConversationSource } from '../../conversations/domain/conversation';
import type { Clock } from '../../shared/clock.port';
import { addCounts, emptyCounts, utcDay, type KeyKind, type RollupCounts, type RollupRow } from '../domain/analytics';
import type { AnalyticsStore } from '../ports/analytics-store.port';

/**
 * One analytics event as the paths that cause it report it. `conversation_started` is not among them:
 * conversations are counted from the conversations table, which has every one of them already.
 */
export type RecordedEvent =
  | { type: 'message_sent' | 'error' | 'api_call' | 'widget_loaded'; applicationId: string; source: ConversationSource; provider?: string; model?: string; keyKind?: KeyKind }
  | {
      type: 'message_received';
      applicationId: string;
      source: ConversationSource;
      provider?: string;
      model?: string;
      keyKind?: KeyKind;
      promptTokens: number;
      completionTokens: number;
    };

/** Past this many slices waiting, a failing store loses the oldest counts instead of growing without bound. */
const MAX_PENDING_SLICES = 50_000;

/**
 * Counts analytics events in memory and adds them to the rollup in batches: one statement per flush
 * (every ANALYTICS_FLUSH_MS, at shutdown, and before a read of this process), however many requests
 * there were, so no request pays a write for its analytics. What a crash loses is the counts since the
 * last flush; another instance's counts show up at its next flush.
 */
export class AnalyticsRecorder {
  private pending = new Map<string, RollupRow>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: {
      store: AnalyticsStore;
      clock: Clock;
      /** A flush that failed (its counts are kept for the next one). */
      onError?: (error: unknown) => void;
    },
  ) {}

  record(event: RecordedEvent): void {
    const key = {
      applicationId: event.applicationId,
      day: utcDay(this.deps.clock.now()),
      source: event.source,
      provider: event.provider ?? '',
      model: event.model ?? '',
      keyKind: event.keyKind ?? 'none',
    };
    const add: Partial<RollupCounts> =
      event.type === 'message_sent'
        ? { messagesSent: 1 }
        : event.type === 'message_received'
          ? { messagesReceived: 1, promptTokens: Math.max(0, Math.round(event.promptTokens)), completionTokens: Math.max(0, Math.round(event.completionTokens)) }
          : event.type === 'error'
            ? { errors: 1 }
            : event.type === 'api_call'
              ? { apiCalls: 1 }
              : { widgetLoads: 1 };
    this.addTo(this.pending, key, add);
  }

  /** Slices waiting for the next flush. */
  get pendingSlices(): number {
    return this.pending.size;
  }

  /** Writes what is counted so far; flushes run one after the other. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.flushNow());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async flushNow(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.deps.store.add([...batch.values()]);
    } catch (error) {
      // Kept for the next flush, merged with what arrived meanwhile.
      for (const row of batch.values()) {
        if (this.pending.size >= MAX_PENDING_SLICES) break;
        const { applicationId, day, source, provider, model, keyKind, ...counts } = row;
        this.addTo(this.pending, { applicationId, day, source, provider, model, keyKind }, counts);
      }
      this.deps.onError?.(error);
      throw error;
    }
  }

  private addTo(map: Map<string, RollupRow>, key: Omit<RollupRow, keyof RollupCounts>, add: Partial<RollupCounts>): void {
    const id = JSON.stringify([key.applicationId, key.day, key.source, key.provider, key.model, key.keyKind]);
    let row = map.get(id);
    if (!row) {
      if (map.size >= MAX_PENDING_SLICES) return;
      row = { ...key, ...emptyCounts() };
      map.set(id, row);
    }
    addCounts(row, add);
  }
}
