import { HistoryCache, recentTurns } from '../../../adapters/persistence/conversations/history-cache';
import type { Turn } from '../../../core/conversations/ports/conversation-repository.port';

const user = (content: string): Turn => ({ role: 'user', content });
const assistant = (content: string): Turn => ({ role: 'assistant', content });
const at = (count: number) => ({ createdAtMs: 1_000, count });

describe('recentTurns', () => {
  const turns = [user('aaaa'), assistant('bbbb'), user('cc'), assistant('dddddd')];

  it('keeps the latest messages, oldest first, at most `limit` of them', () => {
    expect(recentTurns(turns, 100, 1_000)).toEqual(turns);
    expect(recentTurns(turns, 2, 1_000)).toEqual([user('cc'), assistant('dddddd')]);
    expect(recentTurns(turns, 0, 1_000)).toEqual([]);
  });

  it('keeps each message whole while the newer ones together stay under the character budget', () => {
    // Newer than 'cc': 6 characters; newer than 'bbbb': 8.
    expect(recentTurns(turns, 100, 7)).toEqual([user('cc'), assistant('dddddd')]);
    expect(recentTurns(turns, 100, 8)).toEqual([user('cc'), assistant('dddddd')]);
    expect(recentTurns(turns, 100, 9)).toEqual([assistant('bbbb'), user('cc'), assistant('dddddd')]);
    // The newest message always comes, however long; a budget of nothing keeps nothing.
    expect(recentTurns(turns, 100, 1)).toEqual([assistant('dddddd')]);
    expect(recentTurns(turns, 100, 0)).toEqual([]);
  });
});

describe('HistoryCache', () => {
  it('offers an entry only to turns that want no more messages than it stands for', () => {
    const cache = new HistoryCache(1_000_000);
    cache.remember('c', at(4), [user('1'), assistant('2')], 10);
    expect(cache.offer('c', 10)).toMatchObject(at(4));
    expect(cache.offer('c', 11)).toBeUndefined();
    expect(cache.offer('other', 1)).toBeUndefined();
    // What was offered stays as it was, whatever happens to the entry meanwhile.
    const offered = cache.offer('c', 10)!;
    cache.advance('c', 1_000, [user('3')], 1, 5);
    cache.forget('c');
    expect(offered.turns).toEqual([user('1'), assistant('2')]);
    cache.remember('c', at(4), [user('1'), assistant('2')], 10);
    expect(cache.offer('c', 10)!.turns).toEqual([user('1'), assistant('2')]);
    expect(cache.offer('c', 1)!.turns).toEqual([assistant('2')]);
  });

  it('moves an entry forward only when the write follows it directly, and drops it otherwise', () => {
    const cache = new HistoryCache(1_000_000);
    cache.remember('c', at(2), [user('1'), assistant('2')], 3);
    // Two stored (one of them a failed answer, which the history leaves out): 2 + 2 = 4.
    cache.advance('c', 1_000, [user('3'), assistant('')], 2, 4);
    expect(cache.offer('c', 3)).toMatchObject(at(4));
    // It still stands for the latest three messages.
    expect(cache.offer('c', 3)!.turns).toEqual([user('1'), assistant('2'), user('3')]);
    cache.advance('c', 1_000, [assistant('4')], 1, 5);
    expect(cache.offer('c', 3)!.turns).toEqual([assistant('2'), user('3'), assistant('4')]);

    // Another writer came in between: 5 + 1 is not 7.
    cache.advance('c', 1_000, [user('6')], 1, 7);
    expect(cache.offer('c', 1)).toBeUndefined();
  });

  it('drops an entry whose conversation was made again under the same id', () => {
    const cache = new HistoryCache(1_000_000);
    cache.remember('c', at(0), [], Number.POSITIVE_INFINITY);
    cache.advance('c', 2_000, [user('elsewhere')], 1, 1);
    expect(cache.offer('c', 1)).toBeUndefined();
  });

  it('keeps at most 256 messages of a conversation it has followed from the start', () => {
    const cache = new HistoryCache(1_000_000);
    cache.remember('c', at(0), [], Number.POSITIVE_INFINITY);
    for (let i = 1; i <= 300; i++) cache.advance('c', 1_000, [user(String(i))], 1, i);
    expect(cache.offer('c', 256)).toMatchObject(at(300));
    expect(cache.offer('c', 257)).toBeUndefined();
    expect(cache.offer('c', 256)!.turns[0]).toEqual(user('45'));
  });

  it('holds at most its budget of characters, dropping the least recently used entries first', () => {
    // Each entry: 128 of bookkeeping, and 64 plus its text per message.
    const cache = new HistoryCache(3 * (128 + 64 + 100));
    for (const id of ['a', 'b', 'c']) cache.remember(id, at(1), [user('x'.repeat(100))], 10);
    expect(cache.size).toBe(3);
    cache.offer('a', 1); // 'a' is used again, so 'b' is now the oldest
    cache.remember('d', at(1), [user('x'.repeat(100))], 10);
    expect(['a', 'b', 'c', 'd'].filter((id) => cache.offer(id, 1))).toEqual(['a', 'c', 'd']);
    // An entry larger than the whole budget is not kept, and takes nothing else with it.
    cache.remember('huge', at(1), [user('x'.repeat(10_000))], 10);
    expect(cache.offer('huge', 1)).toBeUndefined();
    expect(cache.size).toBe(3);
  });

  it('keeps nothing with a budget of nothing', () => {
    const cache = new HistoryCache(0);
    cache.remember('c', at(0), [], 10);
    expect(cache.size).toBe(0);
  });
});
