/**
 * Group commit for hot rows: one lane per key (a usage counter row, say) runs one batch at a time, and
 * what arrives while a batch runs waits to go in the next one together. Alone, an item runs at once,
 * so nothing waits at low load; under load, N concurrent writes to the same row become a handful of
 * statements instead of N statements queueing on its row lock.
 *
 * `runBatch` answers one result per item, in order. When a batch of several fails, its items are
 * retried one by one, so a failure only reaches the item it belongs to; unless `retryAlone` is false,
 * for a runner that may have written part of a batch before failing (a retry would write it twice):
 * then every item of the batch fails with it.
 */
export class CoalescingLanes<T, R> {
  private readonly lanes = new Map<string, Array<Waiting<T, R>>>();

  private readonly maxBatch: number;
  private readonly retryAlone: boolean;

  constructor(
    private readonly runBatch: (key: string, items: T[]) => Promise<R[]>,
    options: { maxBatch?: number; retryAlone?: boolean } = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
    this.retryAlone = options.retryAlone ?? true;
  }

  submit(key: string, item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const waiting = this.lanes.get(key);
      if (waiting) {
        waiting.push({ item, resolve, reject });
        return;
      }
      const lane: Array<Waiting<T, R>> = [{ item, resolve, reject }];
      this.lanes.set(key, lane);
      void this.drain(key, lane);
    });
  }

  private async drain(key: string, lane: Array<Waiting<T, R>>): Promise<void> {
    while (lane.length > 0) {
      const batch = lane.splice(0, this.maxBatch);
      await this.settle(key, batch);
    }
    this.lanes.delete(key);
  }

  private async settle(key: string, batch: Array<Waiting<T, R>>): Promise<void> {
    try {
      const results = await this.runBatch(key, batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1 || !this.retryAlone) {
        for (const w of batch) w.reject(error);
        return;
      }
      for (const w of batch) await this.settle(key, [w]);
    }
  }
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}
