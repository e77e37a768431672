import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../apps/shared/config';
import { tracesConfigFrom } from '../../../apps/shared/traces-config';

const fail = (message: string) => new ConfigError(message);

describe('the traces settings (TRACES_ENABLED, TRACE_RETENTION_DAYS, OTEL_*)', () => {
  it('records traces for 30 days and exports nothing by default', () => {
    expect(tracesConfigFrom({}, fail)).toEqual({ enabled: true, retentionDays: 30, captureContent: false });
  });

  it('reads the standard OTLP variables, the traces-specific ones winning', () => {
    const general = tracesConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%2Cb, x=1', OTEL_SERVICE_NAME: 'chat', OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, fail);
    expect(general.otlp).toEqual({
      url: 'http://collector:4318/v1/traces',
      protocol: 'http/protobuf',
      headers: { 'api-key': 'a,b', x: '1' },
      serviceName: 'chat',
      resourceAttributes: {},
      sampler: { name: 'parentbased_traceidratio', ratio: 0.25 },
      timeoutMs: 10_000,
    });
    const specific = tracesConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_GENAI_CAPTURE_CONTENT: 'true' }, fail);
    expect(specific).toMatchObject({ captureContent: true, otlp: { url: 'https://b/traces', protocol: 'http/json' } });
    expect(tracesConfigFrom({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' }, fail).otlp).toBeUndefined();
  });

  it.each([
    [{ TRACE_RETENTION_DAYS: '0' }, 'TRACE_RETENTION_DAYS'],
    [{ TRACES_ENABLED: 'maybe' }, 'TRACES_ENABLED'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://x' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }, 'OTEL_EXPORTER_OTLP_PROTOCOL'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://x', OTEL_TRACES_SAMPLER_ARG: '2' }, 'OTEL_TRACES_SAMPLER_ARG'],
  ])('stops the start with one line naming the variable: %o', (env, name) => {
    expect(() => loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'config-test-')), ...env })).toThrow(new RegExp(`^${name}`));
  });
});
