import { randomUUID } from 'node:crypto';
import { InProcessJobQueue } from '../../../adapters/jobs/in-process.job-queue';
import { InMemoryDataExportRepository } from '../../../adapters/persistence/data-export/in-memory-data-export.repository';
import { EXPORT_LINK_HOURS } from '../../../core/data-export/domain/data-export';
import { BUILD_EXPORT_JOB, GetExportUseCase, ListExportsUseCase, RequestExportUseCase } from '../../../core/data-export/use-cases/data-export.use-cases';
import type { Actor } from '../../../core/shared/actor';
import { ValidationError } from '../../../core/shared/errors';

/** A clock moved by hand, so that exports are requested at known, distinct times. */
class HandClock {
  at = new Date('2026-03-01T10:00:00.000Z');
  now = () => new Date(this.at);
  advance(ms: number) {
    this.at = new Date(this.at.getTime() + ms);
  }
}

const aUser = (): Actor => ({ userId: randomUUID(), role: 'user' });

describe('listing data exports', () => {
  let exports: InMemoryDataExportRepository;
  let clock: HandClock;
  let request: RequestExportUseCase;
  let list: ListExportsUseCase;
  let get: GetExportUseCase;

  beforeEach(() => {
    exports = new InMemoryDataExportRepository();
    clock = new HandClock();
    // The queue is not started: the jobs wait, and the tests finish exports as the job would.
    const queue = new InProcessJobQueue();
    queue.register(BUILD_EXPORT_JOB, async () => undefined, { attempts: 1, backoffMs: 0, concurrency: 1 });
    const deps = { exports, clock, queue };
    request = new RequestExportUseCase(deps);
    list = new ListExportsUseCase(deps);
    get = new GetExportUseCase(deps);
  });

  /** Requests an export and marks it ready, as the job would, a minute later. */
  const aReadyExport = async (actor: Actor, resources: 'all' | 'applications' | 'conversations' | 'analytics' = 'all') => {
    const started = await request.execute({ resources }, actor);
    clock.advance(60_000);
    await exports.complete(started.id, { fileName: `${started.id}.json`, byteSize: 1234, at: clock.now() });
    return started.id;
  };

  it("lists the caller's own exports only, newest first, each as the single view shows it", async () => {
    const me = aUser();
    const other = aUser();
    const first = await aReadyExport(me, 'applications');
    await aReadyExport(other);
    const second = await aReadyExport(me, 'analytics');
    const pending = await request.execute({ format: 'csv' }, me);

    const page = await list.execute({}, me);
    expect(page).toMatchObject({ total: 3, page: 1, limit: 20 });
    expect(page.data.map((e) => e.id)).toEqual([pending.id, second, first]);
    expect(page.data[0]).toEqual(await get.execute(pending.id, me));
    expect(page.data[0]).toMatchObject({ status: 'pending', format: 'csv', downloadUrl: null });
    expect(page.data[1]).toEqual(await get.execute(second, me));
    expect(page.data[1]).toMatchObject({ status: 'ready', resources: 'analytics', byteSize: 1234, downloadUrl: `/api/data-export/${second}/download` });

    const theirs = await list.execute({}, other);
    expect(theirs.total).toBe(1);
    expect(theirs.data.map((e) => e.id)).not.toContain(first);
  });

  it('answers an empty page to a user without exports', async () => {
    expect(await list.execute({}, aUser())).toEqual({ data: [], total: 0, page: 1, limit: 20 });
  });

  it('pages with page and limit, the total counting every page', async () => {
    const me = aUser();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift(await aReadyExport(me));
    const pages = [];
    for (const p of ['1', '2', '3']) pages.push(await list.execute({ page: p, limit: '2' }, me));
    expect(pages.map((p) => p.data.map((e) => e.id))).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    expect(pages.map((p) => [p.total, p.page, p.limit])).toEqual([
      [5, 1, 2],
      [5, 2, 2],
      [5, 3, 2],
    ]);
    expect((await list.execute({ page: '4', limit: '2' }, me)).data).toEqual([]);
  });

  it('lists an expired export without a download link, as the single view does', async () => {
    const me = aUser();
    const id = await aReadyExport(me);
    clock.advance(EXPORT_LINK_HOURS * 3_600_000);
    const [listed] = (await list.execute({}, me)).data;
    expect(listed).toMatchObject({ id, status: 'ready', downloadUrl: null });
    expect(listed).toEqual(await get.execute(id, me));
  });

  it.each([
    [{ page: '0' }, 'page'],
    [{ page: '-1' }, 'page'],
    [{ page: '1.5' }, 'page'],
    [{ page: 'two' }, 'page'],
    [{ page: ['1', '2'] }, 'page'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: 'many' }, 'limit'],
  ])('refuses %j as a validation error naming %s', async (query, field) => {
    const failure = list.execute(query, aUser());
    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toMatchObject({ details: [expect.objectContaining({ path: field })] });
  });
});
