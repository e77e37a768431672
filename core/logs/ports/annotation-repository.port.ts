import type { Annotation, AnnotationKind, AnnotationSettings } from '../domain/annotation';

export interface NewAnnotation {
  applicationId: string;
  messageId: string | null;
  kind: AnnotationKind;
  question: string;
  answer: string;
  embedding: number[];
  embeddingModel: string;
  createdBy: string;
}

/** One annotation's question vector, for annotation replies. */
export interface AnnotationVector {
  id: string;
  answer: string;
  /** Kept in the platform's cache, which freezes what it holds: a plain array. */
  embedding: readonly number[];
  embeddingModel: string | null;
}

/** A stored message that can be annotated: an assistant answer with the user's question before it. */
export interface AnnotatableAnswer {
  messageId: string;
  applicationId: string;
  question: string;
  answer: string;
}

/** Annotations and their per-application settings. */
export interface AnnotationRepository {
  /** Creates it, unless the application holds `limit` already (ConflictError) or the message has one (ConflictError). */
  create(annotation: NewAnnotation, limit: number): Promise<Annotation>;
  find(applicationId: string, id: string): Promise<Annotation | null>;
  list(applicationId: string, filter: { search?: string }, offset: number, limit: number): Promise<{ items: Annotation[]; total: number }>;
  /** Every annotation of the application, oldest first (exports). */
  all(applicationId: string): Promise<Annotation[]>;
  update(applicationId: string, id: string, change: { question: string; answer: string; kind: AnnotationKind; embedding: number[]; embeddingModel: string }): Promise<Annotation | null>;
  delete(applicationId: string, id: string): Promise<boolean>;
  /** The assistant message `messageId` of the application with the user message before it; null when none. */
  answer(applicationId: string, messageId: string): Promise<AnnotatableAnswer | null>;
  settings(applicationId: string): Promise<AnnotationSettings>;
  saveSettings(applicationId: string, settings: AnnotationSettings): Promise<AnnotationSettings>;
  /** The question vectors of the application's annotations. */
  vectors(applicationId: string): Promise<AnnotationVector[]>;
  /** Marks the stored answer as served by the annotation, and counts the hit. */
  recordReply(annotationId: string, messageId: string, at: Date): Promise<void>;
}
