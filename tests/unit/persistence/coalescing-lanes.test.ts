import { CoalescingLanes } from '../../../adapters/persistence/coalescing-lanes';

/** A batch runner whose batches finish when the test says so. */
function aRunner(fail: (item: number) => boolean = () => false, retryAlone = true) {
  const batches: Array<{ key: string; items: number[]; finish(): void }> = [];
  const lanes = new CoalescingLanes<number, number>(
    (key, items) =>
      new Promise((resolve, reject) => {
        batches.push({
          key,
          items,
          finish: () => (items.some(fail) ? reject(new Error(`failed: ${items.join(',')}`)) : resolve(items.map((n) => n * 10))),
        });
      }),
    { maxBatch: 3, retryAlone },
  );
  return { lanes, batches };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CoalescingLanes', () => {
  it('runs a lone item at once, and batches what arrives meanwhile, in order and at most maxBatch at a time', async () => {
    const { lanes, batches } = aRunner();
    const results = [1, 2, 3, 4, 5].map((n) => lanes.submit('row', n));
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1]]);
    batches[0]!.finish();
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4]]);
    batches[1]!.finish();
    await tick();
    batches[2]!.finish();
    expect(await Promise.all(results)).toEqual([10, 20, 30, 40, 50]);
    expect(batches.map((b) => b.items)).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('keeps keys apart: another key does not wait', async () => {
    const { lanes, batches } = aRunner();
    void lanes.submit('a', 1);
    void lanes.submit('b', 2);
    await tick();
    expect(batches.map((b) => [b.key, b.items])).toEqual([['a', [1]], ['b', [2]]]);
  });

  it('retries a failed batch item by item, so only the failing item fails', async () => {
    const { lanes, batches } = aRunner((n) => n === 3);
    const results = [1, 2, 3, 4].map((n) => lanes.submit('row', n).catch((e: Error) => e.message));
    await tick();
    batches[0]!.finish();
    await tick();
    batches[1]!.finish(); // [2, 3, 4] fails as a whole
    for (let i = 2; i < 5; i++) {
      await tick();
      batches[i]!.finish();
    }
    expect(await Promise.all(results)).toEqual([10, 20, 'failed: 3', 40]);
  });

  it('fails the whole batch without retrying when told a batch may have been written in part', async () => {
    const { lanes, batches } = aRunner((n) => n === 3, false);
    const results = [1, 2, 3].map((n) => lanes.submit('row', n).catch((e: Error) => e.message));
    await tick();
    batches[0]!.finish();
    await tick();
    batches[1]!.finish();
    expect(await Promise.all(results)).toEqual([10, 'failed: 2,3', 'failed: 2,3']);
    expect(batches).toHaveLength(2);
  });

  it('starts afresh once a lane has emptied', async () => {
    const { lanes, batches } = aRunner();
    const first = lanes.submit('row', 1);
    await tick();
    batches[0]!.finish();
    await first;
    void lanes.submit('row', 2);
    await tick();
    expect(batches.map((b) => b.items)).toEqual([[1], [2]]);
  });
});
