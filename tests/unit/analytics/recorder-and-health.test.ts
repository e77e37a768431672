import type { RollupRow } from '../../../core/analytics/domain/analytics';
import type { AnalyticsStore } from '../../../core/analytics/ports/analytics-store.port';
import { AnalyticsRecorder } from '../../../core/analytics/use-cases/analytics-recorder';
import { providerFailed } from '../../../core/analytics/use-cases/analytics.policy';
import { ProviderReachability } from '../../../core/health/domain/provider-reachability';
import { combine, GetSystemHealthUseCase } from '../../../core/health/use-cases/get-system-health.use-case';
import { UpstreamError, UpstreamTimeoutError, PaymentRequiredError } from '../../../core/shared/errors';

const APP = '6f1f7c4e-1111-4a2b-9c3d-000000000001';
const clock = { now: () => new Date('2026-03-04T10:00:00Z') };

function fakeStore() {
  const batches: RollupRow[][] = [];
  let failNext = 0;
  const store = {
    batches,
    failTimes(n: number) {
      failNext = n;
    },
    async add(rows: RollupRow[]) {
      if (failNext > 0) {
        failNext--;
        throw new Error('database away');
      }
      batches.push(rows);
    },
  };
  return store as typeof store & AnalyticsStore;
}

describe('AnalyticsRecorder', () => {
  it('sums events per slice in memory and writes them in one batch per flush', async () => {
    const store = fakeStore();
    const recorder = new AnalyticsRecorder({ store, clock });
    const slice = { applicationId: APP, source: 'api' as const, provider: 'provider_a', model: 'gpt-4o-mini', keyKind: 'platform' as const };
    for (let i = 0; i < 100; i++) {
      recorder.record({ type: 'message_sent', ...slice });
      recorder.record({ type: 'message_received', ...slice, promptTokens: 10, completionTokens: 5 });
    }
    recorder.record({ type: 'error', ...slice });
    recorder.record({ type: 'widget_loaded', applicationId: APP, source: 'widget' });
    expect(store.batches).toHaveLength(0);
    await recorder.flush();
    expect(store.batches).toHaveLength(1);
    expect(store.batches[0]).toEqual([
      { ...slice, day: '2026-03-04', messagesSent: 100, messagesReceived: 100, promptTokens: 1000, completionTokens: 500, errors: 1, apiCalls: 0, widgetLoads: 0 },
      { applicationId: APP, day: '2026-03-04', source: 'widget', provider: '', model: '', keyKind: 'none', messagesSent: 0, messagesReceived: 0, promptTokens: 0, completionTokens: 0, errors: 0, apiCalls: 0, widgetLoads: 1 },
    ]);
    await recorder.flush();
    expect(store.batches).toHaveLength(1); // nothing new: no statement
  });

  it('keeps the counts of a failed flush for the next one, merged with the new ones', async () => {
    const store = fakeStore();
    const errors: unknown[] = [];
    const recorder = new AnalyticsRecorder({ store, clock, onError: (e) => errors.push(e) });
    recorder.record({ type: 'api_call', applicationId: APP, source: 'api' });
    store.failTimes(1);
    await expect(recorder.flush()).rejects.toThrow('database away');
    expect(errors).toHaveLength(1);
    recorder.record({ type: 'api_call', applicationId: APP, source: 'api' });
    await recorder.flush();
    expect(store.batches).toEqual([[expect.objectContaining({ apiCalls: 2 })]]);
  });
});

describe('provider reachability and the system status rule', () => {
  it('tells a provider failure from a refusal of ours or a refused key', () => {
    expect(providerFailed({ ok: false, error: new UpstreamError('boom', 502) })).toBe(true);
    expect(providerFailed({ ok: false, error: new UpstreamTimeoutError('slow') })).toBe(true);
    expect(providerFailed({ ok: false })).toBe(true); // a stream that ended without an answer
    expect(providerFailed({ ok: false, error: new UpstreamError('bad key', 424) })).toBe(false);
    expect(providerFailed({ ok: false, error: new PaymentRequiredError('quota') })).toBe(false);
    expect(providerFailed({ ok: true })).toBe(false);
  });

  it('judges each provider by its recent calls: unknown, up, degraded, down', () => {
    const r = new ProviderReachability();
    const at = (minutesAgo: number) => new Date(clock.now().getTime() - minutesAgo * 60_000);
    expect(r.report(clock.now()).status).toBe('unknown');
    r.record('provider_a', false, at(1), 100);
    r.record('provider_a', true, at(1));
    r.record('provider_a', false, at(0), 300);
    r.record('provider_b', true, at(3));
    r.record('provider_b', true, at(2));
    r.record('provider_b', true, at(1));
    r.record('provider_c', true, at(60)); // too old to say anything
    const report = r.report(clock.now());
    const providers = report.details!.providers as Record<string, { status: string; averageLatencyMs: number | null }>;
    expect(providers.provider_a).toMatchObject({ status: 'up', averageLatencyMs: 200 });
    expect(providers.provider_b!.status).toBe('down');
    expect(providers.provider_c!.status).toBe('unknown');
    expect(report.status).toBe('down');
    r.record('provider_b', false, at(0));
    expect((r.report(clock.now()).details!.providers as Record<string, { status: string }>).provider_b!.status).toBe('degraded');
  });

  it('combines: a critical component down is down, any other down or degraded is degraded', () => {
    expect(combine([{ status: 'up', critical: true }, { status: 'not_configured', critical: false }, { status: 'unknown', critical: false }])).toBe('healthy');
    expect(combine([{ status: 'up', critical: true }, { status: 'down', critical: false }])).toBe('degraded');
    expect(combine([{ status: 'degraded', critical: true }, { status: 'up', critical: false }])).toBe('degraded');
    expect(combine([{ status: 'down', critical: true }, { status: 'up', critical: false }])).toBe('down');
  });

  it('reports a probe that throws as down with a short reason, never the driver\'s message', async () => {
    const health = new GetSystemHealthUseCase({
      clock,
      components: [
        { name: 'database', critical: true, probe: async () => ({ status: 'up' }) },
        { name: 'redis', critical: false, probe: async () => Promise.reject(new Error('connect ECONNREFUSED redis://:secret@10.0.0.1')) },
      ],
    });
    const report = await health.execute();
    expect(report.status).toBe('degraded');
    expect(report.components.redis).toEqual({ status: 'down', critical: false, latencyMs: expect.any(Number), error: 'unreachable' });
    expect(JSON.stringify(report)).not.toContain('secret');
  });
});
