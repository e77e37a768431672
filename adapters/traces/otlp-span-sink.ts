import { context as otelContext, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace as otelTrace, TraceFlags, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type IdGenerator,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { CONTENT_ATTRIBUTES } from '../../core/traces/domain/attributes';
import type { RecordedSpan } from '../../core/traces/domain/span';
import type { SpanSink } from '../../core/traces/ports/span-sink.port';

export interface OtlpSinkOptions {
  url: string;
  protocol: 'http/json' | 'http/protobuf';
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes?: Record<string, string>;
  sampler: { name: string; ratio: number };
  timeoutMs: number;
  /** OTEL_GENAI_CAPTURE_CONTENT: content attributes (messages, tool arguments and results, the retrieval query) go out too. */
  captureContent: boolean;
  /** Most spans the SDK's batch processor holds; past it the SDK drops them (counted by `dropped`). */
  maxQueue?: number;
  scheduledDelayMs?: number;
}

const KINDS: Record<RecordedSpan['kind'], SpanKind> = { internal: SpanKind.INTERNAL, server: SpanKind.SERVER, client: SpanKind.CLIENT };

function samplerFrom(s: OtlpSinkOptions['sampler']): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(s.ratio);
  switch (s.name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Exports finished traces over OTLP/HTTP through the official OpenTelemetry JS SDK: each recorded span is
 * replayed into the SDK's tracer with its own ids, times, kind, status and attributes (the SDK's id generator
 * hands back the ids the platform chose, so a span has one id in the store and in the collector), and the SDK's
 * sampler, batch processor and OTLP exporter (JSON or protobuf) do the rest. Runs when the trace is finished,
 * never on the turn's path; a collector that is down costs the SDK's queue, not a turn.
 */
export class OtlpSpanSink implements SpanSink {
  private readonly provider: TracerProvider;
  private readonly tracer;
  private next: { traceId: string; spanId: string } = { traceId: '', spanId: '' };
  private droppedCount = 0;

  constructor(private readonly options: OtlpSinkOptions) {
    const exporterConfig = { url: options.url, headers: options.headers, timeoutMillis: options.timeoutMs };
    const exporter: SpanExporter = options.protocol === 'http/json' ? new OtlpJsonExporter(exporterConfig) : new OtlpProtoExporter(exporterConfig);
    const ids: IdGenerator = {
      generateTraceId: () => this.next.traceId,
      generateSpanId: () => this.next.spanId,
    };
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ ...options.resourceAttributes, [ATTR_SERVICE_NAME]: options.serviceName }),
      sampler: samplerFrom(options.sampler),
      idGenerator: ids,
      spanLimits: { attributeValueLengthLimit: 8_192, attributeCountLimit: 128 },
      spanProcessors: [new BatchSpanProcessor({ exporter, maxQueueSize: options.maxQueue ?? 4096, maxExportBatchSize: 512, scheduledDelayMillis: options.scheduledDelayMs ?? 1000, exportTimeoutMillis: options.timeoutMs })],
    });
    this.tracer = this.provider.getTracer('platform.chat', '1.0.0');
  }

  get dropped(): number {
    return this.droppedCount;
  }

  submit(spans: readonly RecordedSpan[]): void {
    try {
      this.replay(spans);
    } catch {
      this.droppedCount += spans.length;
    }
  }

  flush(): Promise<void> {
    return this.provider.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.provider.shutdown();
  }

  /** Parents before children, so each child starts in its parent's context (and follows its sampling decision). */
  private replay(spans: readonly RecordedSpan[]): void {
    const started = new Map<string, Span>();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const pending = [...spans].sort((a, b) => a.startMs - b.startMs);
    const start = (s: RecordedSpan): void => {
      if (started.has(s.spanId)) return;
      const parent = s.parentSpanId ? byId.get(s.parentSpanId) : undefined;
      if (parent) start(parent);
      let ctx: Context = ROOT_CONTEXT;
      if (parent) ctx = otelTrace.setSpan(ROOT_CONTEXT, started.get(parent.spanId)!);
      else if (s.parentSpanId) {
        // A span of another process (the core API's turn, over traceparent): the remote parent.
        ctx = otelTrace.setSpanContext(ROOT_CONTEXT, { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
      }
      this.next = { traceId: s.traceId, spanId: s.spanId };
      const span = otelContext.with(ctx, () => this.tracer.startSpan(s.name, { kind: KINDS[s.kind], startTime: s.startMs, attributes: this.exported(s) }, ctx));
      if (s.status === 'error') span.setStatus({ code: SpanStatusCode.ERROR, message: s.statusMessage ?? '' });
      else span.setStatus({ code: SpanStatusCode.OK });
      started.set(s.spanId, span);
    };
    for (const s of pending) start(s);
    for (const s of pending) started.get(s.spanId)!.end(s.startMs + s.durationMs);
  }

  private exported(s: RecordedSpan): Attributes {
    const out: Attributes = {};
    for (const key in s.attributes) {
      if (!this.options.captureContent && CONTENT_ATTRIBUTES.has(key)) continue;
      out[key] = s.attributes[key];
    }
    return out;
  }
}
