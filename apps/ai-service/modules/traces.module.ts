import type { Container } from 'inversify';
import type { AppModule } from '../../shared/app-module';
import { bindTraceRecording, flushTraces } from '../../shared/modules/trace-recording';

/**
 * The AI service's part of each turn's trace (docs/observability.md): a turn sent with a W3C `traceparent`
 * records its model rounds and tool calls here, under the core API's span and with its trace id, written to the
 * same `trace_spans` table (and exported over OTLP when configured). The core API sweeps them with its own.
 */
export const aiTracesModule: AppModule = {
  name: 'traces',
  bind(c: Container) {
    bindTraceRecording(c, 'ai-service');
  },
  async start(c: Container) {
    return () => flushTraces(c);
  },
};
