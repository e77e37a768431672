import type { Container } from 'inversify';
import { LocalHashingEmbedder } from '../../../adapters/embedders/local-hashing.embedder';
import { logsRouter } from '../../../adapters/http/logs/logs.router';
import { TypeOrmAnnotationRepository } from '../../../adapters/persistence/logs/type-orm-annotation.repository';
import { TypeOrmLogsStore } from '../../../adapters/persistence/logs/type-orm-logs.store';
import type { Embedder } from '../../../core/knowledge/ports/embedder.port';
import { ANNOTATION_REPLY_MODEL, ANNOTATION_REPLY_PROVIDER } from '../../../core/logs/domain/annotation';
import { AnnotationReplier } from '../../../core/logs/use-cases/annotation-replies';
import {
  AnnotationSettingsUseCase,
  CreateAnnotationUseCase,
  DeleteAnnotationUseCase,
  ExportAnnotationsUseCase,
  ListAnnotationsUseCase,
  UpdateAnnotationUseCase,
} from '../../../core/logs/use-cases/annotations.use-cases';
import { GetLogConversationUseCase, ListLogsUseCase, noTraces } from '../../../core/logs/use-cases/logs.use-cases';
import { provide, type AppModule, type Getter } from '../../shared/app-module';
import { CHAT_TOKENS } from '../../shared/modules/chat-engine.tokens';
import { TOKENS, resolve } from '../../shared/tokens';
import { ANALYTICS_TOKENS } from './analytics.tokens';
import { KNOWLEDGE_TOKENS } from './knowledge.tokens';
import { LOGS_TOKENS } from './logs.tokens';
import { TRACE_TOKENS } from './traces.tokens';

/** The platform's embedder for annotation questions: the built-in local one (offline, never metered). */
function annotationEmbedder(c: Container, get: Getter): Embedder {
  return c.isBound(KNOWLEDGE_TOKENS.EmbedderRegistry) ? get(KNOWLEDGE_TOKENS.EmbedderRegistry).get('local') : new LocalHashingEmbedder();
}

/** The application's logs, annotations and annotation replies (docs/logs.md). */
export const logsModule: AppModule = {
  name: 'logs',
  bind(c: Container) {
    provide(c, LOGS_TOKENS.LogsStore, (get) => new TypeOrmLogsStore(get(TOKENS.DataSource)));
    provide(c, LOGS_TOKENS.AnnotationRepository, (get) => new TypeOrmAnnotationRepository(get(TOKENS.DataSource)));
    const logs = (get: Getter) => ({
      applications: get(TOKENS.ApplicationRepository),
      store: get(LOGS_TOKENS.LogsStore),
      // The traces area's reader (absent in a composition without it: no answer then has a trace).
      traces: c.isBound(TRACE_TOKENS.Reader) ? get(TRACE_TOKENS.Reader) : noTraces,
      prices: get(TOKENS.Config).modelPrices,
    });
    provide(c, ListLogsUseCase, (get) => new ListLogsUseCase(logs(get)));
    provide(c, GetLogConversationUseCase, (get) => new GetLogConversationUseCase(logs(get)));
    const annotations = (get: Getter) => ({
      applications: get(TOKENS.ApplicationRepository),
      annotations: get(LOGS_TOKENS.AnnotationRepository),
      embedder: annotationEmbedder(c, get),
      cache: get(TOKENS.Cache),
    });
    provide(c, ListAnnotationsUseCase, (get) => new ListAnnotationsUseCase(annotations(get)));
    provide(c, CreateAnnotationUseCase, (get) => new CreateAnnotationUseCase(annotations(get)));
    provide(c, UpdateAnnotationUseCase, (get) => new UpdateAnnotationUseCase(annotations(get)));
    provide(c, DeleteAnnotationUseCase, (get) => new DeleteAnnotationUseCase(annotations(get)));
    provide(c, ExportAnnotationsUseCase, (get) => new ExportAnnotationsUseCase(annotations(get)));
    provide(c, AnnotationSettingsUseCase, (get) => new AnnotationSettingsUseCase(annotations(get)));
    provide(c, LOGS_TOKENS.AnnotationReplier, (get) => {
      const recorder = c.isBound(ANALYTICS_TOKENS.Recorder) ? get(ANALYTICS_TOKENS.Recorder) : undefined;
      return new AnnotationReplier({
        annotations: get(LOGS_TOKENS.AnnotationRepository),
        conversations: get(CHAT_TOKENS.ConversationRepository),
        embedder: annotationEmbedder(c, get),
        cache: get(TOKENS.Cache),
        clock: get(TOKENS.Clock),
        ...(c.isBound(TRACE_TOKENS.Tracer) ? { tracer: get(TRACE_TOKENS.Tracer) } : {}),
        // Counted apart from model answers: under the provider `annotation`, with no tokens.
        ...(recorder
          ? {
              count: (turn) => {
                const slice = { applicationId: turn.application.id, source: turn.source, provider: ANNOTATION_REPLY_PROVIDER, model: ANNOTATION_REPLY_MODEL };
                recorder.record({ type: 'message_sent', ...slice });
                recorder.record({ type: 'message_received', ...slice, promptTokens: 0, completionTokens: 0 });
              },
            }
          : {}),
      });
    });
  },
  routers: (c) => [
    logsRouter({
      auth: resolve(c, TOKENS.AuthMiddleware),
      list: resolve(c, ListLogsUseCase),
      get: resolve(c, GetLogConversationUseCase),
      listAnnotations: resolve(c, ListAnnotationsUseCase),
      createAnnotation: resolve(c, CreateAnnotationUseCase),
      updateAnnotation: resolve(c, UpdateAnnotationUseCase),
      deleteAnnotation: resolve(c, DeleteAnnotationUseCase),
      exportAnnotations: resolve(c, ExportAnnotationsUseCase),
      settings: resolve(c, AnnotationSettingsUseCase),
    }),
  ],
};
