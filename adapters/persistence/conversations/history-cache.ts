import type { Turn } from '../../../core/conversations/ports/conversation-repository.port';

/**
 * Which state of a conversation an entry holds: its creation time (so a conversation deleted and made
 * again under the same id is not taken for the old one) and its message count, which every statement
 * that stores messages raises under the conversation's row lock, in the same transaction.
 */
export interface HistoryVersion {
  createdAtMs: number;
  count: number;
}

export interface CachedHistory extends HistoryVersion {
  /** The latest messages with text (failed answers left out), oldest first. */
  turns: Turn[];
}

interface Entry extends HistoryVersion {
  /** The latest messages with text (failed answers left out), oldest first. */
  turns: Turn[];
  /** How many of the latest such messages `turns` stands for: all of them when the conversation has fewer. */
  depth: number;
  chars: number;
}

/** Bookkeeping charged per entry and per message on top of the text, so that many short ones count too. */
const ENTRY_OVERHEAD_CHARS = 128;
const TURN_OVERHEAD_CHARS = 64;
/** Entries that cover a conversation from its first message stop growing here. */
const MAX_DEPTH = 256;

/**
 * The recent history of the conversations this process has read or written, so that a chat turn need
 * not read it back from the database every time. The cache is only ever a proposal: a turn sends the
 * version it holds, the database answers the history only when the conversation is no longer at that
 * version, and an entry is moved forward only when a write shows that nothing else came in between.
 * Writes from another process, another engine or another instance are therefore never missed, they
 * only cost a read. Bounded by the characters it holds; the least recently used entries go first.
 */
export class HistoryCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(private readonly maxChars: number) {}

  /**
   * What a turn wanting the latest `limit` messages can offer the database, if the entry holds that
   * many: its version and those messages, oldest first (a copy of its own, whatever happens to the
   * entry while the turn's statement runs).
   */
  offer(conversationId: string, limit: number): CachedHistory | undefined {
    const entry = this.entries.get(conversationId);
    if (!entry || entry.depth < limit) return undefined;
    this.entries.delete(conversationId); // most recently used last
    this.entries.set(conversationId, entry);
    return { createdAtMs: entry.createdAtMs, count: entry.count, turns: entry.turns.slice(Math.max(0, entry.turns.length - limit)) };
  }

  /** A conversation as read at `version`: its latest `depth` messages with text, oldest first. */
  remember(conversationId: string, version: HistoryVersion, turns: Turn[], depth: number): void {
    this.forget(conversationId);
    const kept = Math.min(depth, MAX_DEPTH);
    const entry: Entry = { ...version, turns: turns.slice(Math.max(0, turns.length - kept)), depth: kept, chars: 0 };
    entry.chars = charsOf(entry.turns);
    if (entry.chars > this.maxChars) return;
    this.entries.set(conversationId, entry);
    this.chars += entry.chars;
    this.evict();
  }

  /**
   * Messages a write stored, `stored` of them in all (failed answers included), after which the
   * conversation has `countAfter` messages. The entry moves forward only if it was exactly at
   * `countAfter - stored`; otherwise another write came in between and the entry is dropped.
   */
  advance(conversationId: string, createdAtMs: number, stored: Turn[], storedCount: number, countAfter: number): void {
    const entry = this.entries.get(conversationId);
    if (!entry) return;
    if (entry.createdAtMs !== createdAtMs || entry.count + storedCount !== countAfter) {
      this.forget(conversationId);
      return;
    }
    const turns = [...entry.turns, ...stored.filter((t) => t.content !== '' || t.toolCalls?.length || t.role === 'tool')];
    this.remember(conversationId, { createdAtMs, count: countAfter }, turns, entry.depth);
  }

  forget(conversationId: string): void {
    const entry = this.entries.get(conversationId);
    if (!entry) return;
    this.entries.delete(conversationId);
    this.chars -= entry.chars;
  }

  get size(): number {
    return this.entries.size;
  }

  private evict(): void {
    for (const [id] of this.entries) {
      if (this.chars <= this.maxChars) return;
      this.forget(id);
    }
  }
}

function charsOf(turns: Turn[]): number {
  let chars = ENTRY_OVERHEAD_CHARS;
  for (const t of turns) {
    chars += t.content.length + TURN_OVERHEAD_CHARS;
    for (const call of t.toolCalls ?? []) chars += call.arguments.length + call.name.length + TURN_OVERHEAD_CHARS;
  }
  return chars;
}

/**
 * The part of a history a prompt gets, oldest first: the latest `limit` messages, and of those the
 * newest ones whose text comes to about `maxChars` characters (each message is kept whole while the
 * newer ones together stay under the limit).
 */
export function recentTurns(turns: Turn[], limit: number, maxChars: number): Turn[] {
  let first = turns.length;
  let newer = 0;
  while (first > 0 && turns.length - first < limit && newer < maxChars) {
    first -= 1;
    newer += turns[first]!.content.length;
  }
  return turns.slice(first);
}
