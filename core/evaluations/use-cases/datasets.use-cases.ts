import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { str, uuidField, validate } from '../../shared/validation';
import type { AnnotationRepository } from '../../logs/ports/annotation-repository.port';
import {
  itemSchema,
  itemsToCsv,
  itemsToJsonl,
  MAX_DATASET_ITEMS,
  MAX_IMPORT_BYTES,
  MAX_ITEMS_PER_REQUEST,
  rowToItemCandidate,
  toDatasetView,
  toItemView,
  toNewItem,
  type DatasetView,
  type ItemView,
  type NewItem,
} from '../domain/dataset';
import type { DatasetFileParser } from '../ports/evaluation-engines.port';
import { datasetOf, evaluationApplication, type EvaluationAccessDeps } from './evaluation-deps';

const datasetSchema = yup.object({
  name: str().typeError('name must be text').required('name is required').matches(/\S/, 'name must not be empty').max(120, 'name must be at most 120 characters'),
  description: str().typeError('description must be text').max(2_000, 'description must be at most 2000 characters'),
});
const datasetChanges = yup.object({
  name: str().typeError('name must be text').matches(/\S/, 'name must not be empty').max(120, 'name must be at most 120 characters'),
  description: str().typeError('description must be text').max(2_000, 'description must be at most 2000 characters'),
});
const itemsSchema = yup.object({
  items: yup
    .array()
    .typeError('items must be a list')
    .required('items is required')
    .min(1, 'items must have at least one entry')
    .max(MAX_ITEMS_PER_REQUEST, `items must have at most ${MAX_ITEMS_PER_REQUEST} entries`)
    .of(itemSchema.typeError('each item must be an object').required()),
});

export class ListDatasetsUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}
  async execute(appId: string, actor: Actor): Promise<DatasetView[]> {
    const application = await evaluationApplication(this.deps, appId, actor, 'read');
    return (await this.deps.datasets.listByApplication(application.id)).map((d) => toDatasetView(d.dataset, d.itemCount));
  }
}

export class CreateDatasetUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}
  async execute(appId: string, input: unknown, actor: Actor): Promise<DatasetView> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const body = await validate(datasetSchema, input);
    return toDatasetView(await this.deps.datasets.create({ applicationId: application.id, name: body.name.trim(), description: body.description ?? '' }), 0);
  }
}

export class GetDatasetUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}
  async execute(appId: string, datasetId: string, actor: Actor): Promise<DatasetView & { items: ItemView[] }> {
    const application = await evaluationApplication(this.deps, appId, actor, 'read');
    const dataset = await datasetOf(this.deps, application, datasetId);
    const items = await this.deps.datasets.items(dataset.id);
    return { ...toDatasetView(dataset, items.length), items: items.map(toItemView) };
  }
}

export class UpdateDatasetUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}
  async execute(appId: string, datasetId: string, input: unknown, actor: Actor): Promise<DatasetView> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const dataset = await datasetOf(this.deps, application, datasetId);
    const body = await validate(datasetChanges, input);
    const updated = await this.deps.datasets.update(dataset.id, { ...(body.name !== undefined ? { name: body.name.trim() } : {}), ...(body.description !== undefined ? { description: body.description } : {}) });
    return toDatasetView(updated, await this.deps.datasets.countItems(dataset.id));
  }
}

export class DeleteDatasetUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}
  async execute(appId: string, datasetId: string, actor: Actor): Promise<void> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const dataset = await datasetOf(this.deps, application, datasetId);
    await this.deps.datasets.delete(dataset.id);
  }
}

/**
 * Adds items to a dataset as one new version. Every way in (by hand, an imported file, and later a logged message
 * or an annotation) ends here with the items already read, so each source is one use case reading its own data.
 */
export class AddDatasetItemsUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}

  async execute(appId: string, datasetId: string, input: unknown, actor: Actor): Promise<DatasetView & { added: ItemView[] }> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const dataset = await datasetOf(this.deps, application, datasetId);
    const body = await validate(itemsSchema, input);
    return this.add(dataset.id, body.items.map(toNewItem));
  }

  /** For the other ways in, once they checked access and read their items. */
  async add(datasetId: string, items: NewItem[]): Promise<DatasetView & { added: ItemView[] }> {
    const { dataset, items: added } = await this.deps.datasets.addItems(datasetId, items, MAX_DATASET_ITEMS);
    return { ...toDatasetView(dataset, await this.deps.datasets.countItems(dataset.id)), added: added.map(toItemView) };
  }
}

const fromAnnotationsSchema = yup.object({
  annotationIds: yup
    .array(uuidField('each of annotationIds').required())
    .min(1, 'annotationIds must name at least one annotation')
    .max(MAX_ITEMS_PER_REQUEST, `annotationIds must have at most ${MAX_ITEMS_PER_REQUEST} entries`)
    .required(),
});

/**
 * `POST …/datasets/:id/items/from-annotations` (OBSERVE.md: an annotation added to a dataset in one step): each
 * annotation of the same application becomes an item, its question the input and its answer the expected one,
 * tagged `annotation`. All or none: an annotation that is not the application's is a 404 and nothing is added.
 */
export class AddAnnotationsToDatasetUseCase {
  constructor(private readonly deps: EvaluationAccessDeps & { annotations: Pick<AnnotationRepository, 'find'>; add: AddDatasetItemsUseCase }) {}

  async execute(appId: string, datasetId: string, input: unknown, actor: Actor): Promise<DatasetView & { added: ItemView[] }> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const dataset = await datasetOf(this.deps, application, datasetId);
    const { annotationIds } = await validate(fromAnnotationsSchema, input);
    const items: NewItem[] = [];
    for (const id of new Set(annotationIds)) {
      const annotation = await this.deps.annotations.find(application.id, id);
      if (!annotation) throw new NotFoundError('Annotation');
      items.push({ input: { message: annotation.question }, expected: annotation.answer, tags: ['annotation'] });
    }
    return this.deps.add.add(dataset.id, items);
  }
}

const fromMessagesSchema = yup.object({
  messageIds: yup
    .array(uuidField('each of messageIds').required())
    .min(1, 'messageIds must name at least one answer')
    .max(MAX_ITEMS_PER_REQUEST, `messageIds must have at most ${MAX_ITEMS_PER_REQUEST} entries`)
    .required(),
});

/**
 * `POST …/datasets/:id/items/from-messages` (OBSERVE.md: items from the logs): each answer of the application's
 * conversations becomes an item, the user's question before it the input and the answer given the one expected
 * (a regression check: keep answering like this), tagged `log`. All or none: an answer that is not the
 * application's is a 404 and nothing is added.
 */
export class AddMessagesToDatasetUseCase {
  constructor(private readonly deps: EvaluationAccessDeps & { answers: Pick<AnnotationRepository, 'answer'>; add: AddDatasetItemsUseCase }) {}

  async execute(appId: string, datasetId: string, input: unknown, actor: Actor): Promise<DatasetView & { added: ItemView[] }> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const dataset = await datasetOf(this.deps, application, datasetId);
    const { messageIds } = await validate(fromMessagesSchema, input);
    const items: NewItem[] = [];
    for (const id of new Set(messageIds)) {
      const answer = await this.deps.answers.answer(application.id, id);
      if (!answer) throw new NotFoundError('Message');
      items.push({ input: { message: answer.question }, expected: answer.answer, tags: ['log'] });
    }
    return this.deps.add.add(dataset.id, items);
  }
}

export class RemoveDatasetItemUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}
  async execute(appId: string, datasetId: string, itemId: string, actor: Actor): Promise<void> {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const dataset = await datasetOf(this.deps, application, datasetId);
    if (!isUuid(itemId) || !(await this.deps.datasets.removeItem(dataset.id, itemId))) throw new NotFoundError('Item');
  }
}

/** `POST …/datasets/:id/import`: a CSV or JSON Lines file (multipart) added as one version, all rows or none. */
export class ImportDatasetItemsUseCase {
  constructor(private readonly deps: EvaluationAccessDeps & { parser: DatasetFileParser; add: AddDatasetItemsUseCase }) {}

  async execute(appId: string, datasetId: string, form: { fields: Record<string, string>; file?: { name: string; bytes: Buffer } }, actor: Actor) {
    const application = await evaluationApplication(this.deps, appId, actor, 'write');
    const dataset = await datasetOf(this.deps, application, datasetId);
    const file = form.file;
    if (!file) throw ValidationError.field('file', 'Attach a CSV or JSON Lines file in the "file" field');
    if (file.bytes.length > MAX_IMPORT_BYTES) throw new PayloadTooLargeError(`The file is larger than the ${MAX_IMPORT_BYTES / (1024 * 1024)} MB import limit`);
    const declared = form.fields.format;
    const format = declared === 'csv' || declared === 'jsonl' ? declared : /\.jsonl?$/i.test(file.name) ? 'jsonl' : /\.csv$/i.test(file.name) ? 'csv' : null;
    if (!format) throw ValidationError.field('format', 'format must be csv or jsonl (or the file named .csv or .jsonl)');
    const existing = await this.deps.datasets.countItems(dataset.id);
    const room = MAX_DATASET_ITEMS - existing;
    const rows = await this.deps.parser.parse(file.bytes, format, room);
    if (!rows.length) throw ValidationError.field('file', 'The file has no rows');
    const items: NewItem[] = [];
    for (const [i, row] of rows.entries()) {
      try {
        items.push(toNewItem(await validate(itemSchema, rowToItemCandidate(row))));
      } catch (error) {
        if (error instanceof ValidationError) throw new ValidationError(`Row ${i + 1}: ${error.message}`, error.details.map((d) => ({ ...d, path: `row ${i + 1}.${d.path}` })));
        throw error;
      }
    }
    return this.deps.add.add(dataset.id, items);
  }
}

export class ExportDatasetUseCase {
  constructor(private readonly deps: EvaluationAccessDeps) {}
  async execute(appId: string, datasetId: string, format: unknown, actor: Actor): Promise<{ fileName: string; contentType: string; body: string }> {
    const application = await evaluationApplication(this.deps, appId, actor, 'read');
    const dataset = await datasetOf(this.deps, application, datasetId);
    const chosen = format === undefined ? 'csv' : format;
    if (chosen !== 'csv' && chosen !== 'jsonl') throw ValidationError.field('format', 'format must be csv or jsonl');
    const items = await this.deps.datasets.items(dataset.id);
    const base = dataset.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'dataset';
    return chosen === 'csv'
      ? { fileName: `${base}-v${dataset.version}.csv`, contentType: 'text/csv; charset=utf-8', body: itemsToCsv(items) }
      : { fileName: `${base}-v${dataset.version}.jsonl`, contentType: 'application/x-ndjson; charset=utf-8', body: itemsToJsonl(items) };
  }
}
