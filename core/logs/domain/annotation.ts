/**
 * An annotation (docs/logs.md): a question and the answer the owner vouches for. `good` marks a stored answer
 * as right as it is; `corrected` replaces a stored answer with the one it should have been; `manual` is a pair
 * written by hand.
 */
export const ANNOTATION_KINDS = ['good', 'corrected', 'manual'] as const;
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number];

export interface Annotation {
  id: string;
  applicationId: string;
  /** The answer it was made from (null when written by hand, or when that message is gone). */
  messageId: string | null;
  kind: AnnotationKind;
  question: string;
  answer: string;
  createdBy: string | null;
  /** How many questions it answered (annotation replies). */
  hitCount: number;
  lastHitAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface AnnotationView {
  id: string;
  messageId: string | null;
  kind: AnnotationKind;
  question: string;
  answer: string;
  hitCount: number;
  lastHitAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const toAnnotationView = (a: Annotation): AnnotationView => ({
  id: a.id,
  messageId: a.messageId,
  kind: a.kind,
  question: a.question,
  answer: a.answer,
  hitCount: a.hitCount,
  lastHitAt: a.lastHitAt ? a.lastHitAt.toISOString() : null,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});

/** Whether close questions are answered from the annotations, and how close (cosine similarity, 0.5 to 1). */
export interface AnnotationSettings {
  repliesEnabled: boolean;
  threshold: number;
}

export const DEFAULT_ANNOTATION_SETTINGS: AnnotationSettings = { repliesEnabled: false, threshold: 0.9 };
export const MIN_THRESHOLD = 0.5;

/** Longest question and answer, in characters. */
export const MAX_QUESTION = 4_000;
export const MAX_ANSWER = 20_000;
/** Most annotations one application holds (each one is a vector kept in memory while replies are on). */
export const MAX_ANNOTATIONS_PER_APPLICATION = 5_000;

/** The provider and model an answer served from an annotation is counted under in analytics (apart from model answers). */
export const ANNOTATION_REPLY_PROVIDER = 'annotation';
export const ANNOTATION_REPLY_MODEL = 'annotation-reply';

/** The key of `messages.metadata` naming the annotation that answered. */
export const ANSWERED_BY_ANNOTATION = 'annotationId';

/** CSV of annotations: one row each, a header first; cells that start like a formula are quoted with a leading apostrophe. */
export function annotationsCsv(items: AnnotationView[]): string {
  const header = ['id', 'kind', 'question', 'answer', 'message_id', 'hit_count', 'created_at', 'updated_at'];
  const lines = [header.join(',')];
  for (const a of items) {
    lines.push([a.id, a.kind, a.question, a.answer, a.messageId ?? '', String(a.hitCount), a.createdAt, a.updatedAt].map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** JSON Lines of annotations: one object each, question and answer first. */
export function annotationsJsonl(items: AnnotationView[]): string {
  return items.map((a) => JSON.stringify({ question: a.question, answer: a.answer, kind: a.kind, id: a.id, messageId: a.messageId, hitCount: a.hitCount, createdAt: a.createdAt, updatedAt: a.updatedAt })).join('\n') + (items.length ? '\n' : '');
}

function csvCell(value: string): string {
  // A spreadsheet runs a cell starting with = + - @ (or a tab / carriage return) as a formula: end users wrote these.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
