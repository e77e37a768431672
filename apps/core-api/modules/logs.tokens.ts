import type { AnnotationRepository } from '../../../core/logs/ports/annotation-repository.port';
import type { LogsStore } from '../../../core/logs/ports/logs-store.port';
import type { AnnotationReplier } from '../../../core/logs/use-cases/annotation-replies';
import { token } from '../../shared/tokens';

export const LOGS_TOKENS = {
  LogsStore: token<LogsStore>('LogsStore'),
  AnnotationRepository: token<AnnotationRepository>('AnnotationRepository'),
  /** Annotation replies, called once per chat turn by the turn runner (docs/logs.md). */
  AnnotationReplier: token<AnnotationReplier>('AnnotationReplier'),
} as const;
