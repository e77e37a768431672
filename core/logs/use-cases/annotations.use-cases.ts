import * as yup from 'yup';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import { findOwnedApplication } from '../../applications/use-cases/find-owned-application';
import { embedTexts } from '../../knowledge/use-cases/embed-texts';
import type { Embedder } from '../../knowledge/ports/embedder.port';
import type { Actor } from '../../shared/actor';
import type { Cache } from '../../shared/cache.port';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { bool, num, str, uuidField, validate } from '../../shared/validation';
import {
  annotationsCsv,
  annotationsJsonl,
  MAX_ANNOTATIONS_PER_APPLICATION,
  MAX_ANSWER,
  MAX_QUESTION,
  MIN_THRESHOLD,
  toAnnotationView,
  type AnnotationKind,
  type AnnotationSettings,
  type AnnotationView,
} from '../domain/annotation';
import type { AnnotationRepository } from '../ports/annotation-repository.port';

export interface AnnotationsDeps {
  applications: ApplicationRepository;
  annotations: AnnotationRepository;
  /** The platform's embedder for annotation questions (the built-in local one: offline, never metered). */
  embedder: Embedder;
  /** Where annotation replies keep each application's vectors; forgotten on every change. */
  cache: Cache;
}

/** The cache key of an application's annotation replies (settings and vectors). */
export const annotationCacheKey = (applicationId: string): string => `annot:${applicationId}`;

const question = () => str().max(MAX_QUESTION, `question must be at most ${MAX_QUESTION} characters`);
const answer = () => str().max(MAX_ANSWER, `answer must be at most ${MAX_ANSWER} characters`);

const createSchema = yup.object({
  messageId: uuidField('messageId'),
  question: question(),
  answer: answer(),
});

const updateSchema = yup.object({
  question: question(),
  answer: answer(),
});

const settingsSchema = yup.object({
  repliesEnabled: bool().required('repliesEnabled is required'),
  threshold: num()
    .min(MIN_THRESHOLD, `threshold must be from ${MIN_THRESHOLD} to 1`)
    .max(1, `threshold must be from ${MIN_THRESHOLD} to 1`)
    .required('threshold is required'),
});

abstract class AnnotationsUseCase {
  constructor(protected readonly deps: AnnotationsDeps) {}

  protected async embed(text: string): Promise<{ embedding: number[]; embeddingModel: string }> {
    const [embedding] = await embedTexts(this.deps.embedder, [text]);
    return { embedding: embedding!, embeddingModel: this.deps.embedder.model };
  }

  protected forget(applicationId: string): Promise<void> {
    return this.deps.cache.invalidate(annotationCacheKey(applicationId));
  }
}

/**
 * `POST /api/applications/:appId/annotations`: from an answer (`messageId`): as it is (`good`), or with the
 * answer it should have been (`corrected`); or a question/answer pair written by hand (`manual`).
 */
export class CreateAnnotationUseCase extends AnnotationsUseCase {
  async execute(applicationId: string, body: unknown, actor: Actor): Promise<AnnotationView> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    const input = await validate(createSchema, body);
    let kind: AnnotationKind;
    let q: string;
    let a: string;
    if (input.messageId) {
      const stored = await this.deps.annotations.answer(app.id, input.messageId);
      if (!stored) throw new NotFoundError('Message');
      q = input.question || stored.question;
      a = input.answer || stored.answer;
      kind = a === stored.answer ? 'good' : 'corrected';
    } else {
      if (!input.question) throw ValidationError.field('question', 'question is required without a messageId');
      if (!input.answer) throw ValidationError.field('answer', 'answer is required without a messageId');
      q = input.question;
      a = input.answer;
      kind = 'manual';
    }
    if (q.trim() === '') throw ValidationError.field('question', 'The answer has no question before it; write one');
    if (a.trim() === '') throw ValidationError.field('answer', 'The answer is empty; write the one it should have been');
    const created = await this.deps.annotations.create(
      { applicationId: app.id, messageId: input.messageId ?? null, kind, question: q, answer: a, ...(await this.embed(q)), createdBy: actor.userId },
      MAX_ANNOTATIONS_PER_APPLICATION,
    );
    await this.forget(app.id);
    return toAnnotationView(created);
  }
}

/** `GET /api/applications/:appId/annotations?q=&page=&limit=`: newest first; `q` searches questions and answers. */
export class ListAnnotationsUseCase extends AnnotationsUseCase {
  async execute(applicationId: string, query: Record<string, unknown>, actor: Actor): Promise<Page<AnnotationView>> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    const page = parsePageRequest({ page: once(query.page, 'page'), limit: once(query.limit, 'limit') });
    const search = once(query.q, 'q')?.trim();
    if (search && search.length > 200) throw ValidationError.field('q', 'q must be at most 200 characters');
    const { items, total } = await this.deps.annotations.list(app.id, search ? { search } : {}, offsetOf(page), page.limit);
    return { data: items.map(toAnnotationView), total, page: page.page, limit: page.limit };
  }
}

/** `PUT /api/applications/:appId/annotations/:id`: a new question or answer (an annotation of an answer becomes `corrected` when its answer changes). */
export class UpdateAnnotationUseCase extends AnnotationsUseCase {
  async execute(applicationId: string, id: string, body: unknown, actor: Actor): Promise<AnnotationView> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    const input = await validate(updateSchema, body);
    const found = isUuid(id) ? await this.deps.annotations.find(app.id, id) : null;
    if (!found) throw new NotFoundError('Annotation');
    const q = input.question ?? found.question;
    const a = input.answer ?? found.answer;
    if (q.trim() === '') throw ValidationError.field('question', 'question must not be empty');
    if (a.trim() === '') throw ValidationError.field('answer', 'answer must not be empty');
    const kind: AnnotationKind = found.kind === 'good' && a !== found.answer ? 'corrected' : found.kind;
    const updated = await this.deps.annotations.update(app.id, found.id, { question: q, answer: a, kind, ...(await this.embed(q)) });
    if (!updated) throw new NotFoundError('Annotation');
    await this.forget(app.id);
    return toAnnotationView(updated);
  }
}

/** `DELETE /api/applications/:appId/annotations/:id`. */
export class DeleteAnnotationUseCase extends AnnotationsUseCase {
  async execute(applicationId: string, id: string, actor: Actor): Promise<void> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    if (!isUuid(id) || !(await this.deps.annotations.delete(app.id, id))) throw new NotFoundError('Annotation');
    await this.forget(app.id);
  }
}

/** `GET /api/applications/:appId/annotations/export?format=csv|jsonl`: every annotation, oldest first. */
export class ExportAnnotationsUseCase extends AnnotationsUseCase {
  async execute(applicationId: string, query: Record<string, unknown>, actor: Actor): Promise<{ contentType: string; fileName: string; body: string }> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    const format = once(query.format, 'format') ?? 'csv';
    if (format !== 'csv' && format !== 'jsonl') throw ValidationError.field('format', 'format must be csv or jsonl');
    const items = (await this.deps.annotations.all(app.id)).map(toAnnotationView);
    return format === 'csv'
      ? { contentType: 'text/csv; charset=utf-8', fileName: `${app.slug}-annotations.csv`, body: annotationsCsv(items) }
      : { contentType: 'application/x-ndjson; charset=utf-8', fileName: `${app.slug}-annotations.jsonl`, body: annotationsJsonl(items) };
  }
}

/** `GET|PUT /api/applications/:appId/annotations/settings`: annotation replies on or off, and the similarity threshold. */
export class AnnotationSettingsUseCase extends AnnotationsUseCase {
  async get(applicationId: string, actor: Actor): Promise<AnnotationSettings> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'read');
    return this.deps.annotations.settings(app.id);
  }

  async save(applicationId: string, body: unknown, actor: Actor): Promise<AnnotationSettings> {
    const app = await findOwnedApplication(this.deps.applications, applicationId, actor, 'write');
    const input = await validate(settingsSchema, body);
    const saved = await this.deps.annotations.saveSettings(app.id, { repliesEnabled: input.repliesEnabled, threshold: input.threshold });
    await this.forget(app.id);
    return saved;
  }
}

function once(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw ValidationError.field(name, `${name} must be given once`);
  return value;
}
