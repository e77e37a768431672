import * as yup from 'yup';
import { ValidationError } from '../../shared/errors';
import { str } from '../../shared/validation';

/** What a target is asked: a message, optionally the prompt variables' values and the conversation before it. */
export interface ItemInput {
  message: string;
  variables?: Record<string, string>;
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
}

export interface Dataset {
  id: string;
  applicationId: string;
  name: string;
  description: string;
  /** Raised by every change to its items; a run records the version it read. */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface DatasetItem {
  id: string;
  datasetId: string;
  seq: number;
  input: ItemInput;
  expected: string | null;
  tags: string[];
  /** The item belongs to the dataset's versions from `addedVersion` up to, not including, `removedVersion`. */
  addedVersion: number;
  removedVersion: number | null;
  createdAt: Date;
}

export type NewItem = Pick<DatasetItem, 'input' | 'expected' | 'tags'>;

/** Items a dataset holds at most (an import past it is refused whole). */
export const MAX_DATASET_ITEMS = 10_000;
/** The largest file an import reads. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/** Items one request adds by hand. */
export const MAX_ITEMS_PER_REQUEST = 500;
const MAX_TEXT = 100_000;
const MAX_TAGS = 20;

const text = (name: string) => str().typeError(`${name} must be text`).max(MAX_TEXT, `${name} must be at most ${MAX_TEXT} characters`);

const variablesField = yup
  .mixed<Record<string, string>>()
  .test('variables', 'variables must be an object of text values', (v) => v === undefined || (isPlainObject(v) && Object.keys(v).length <= 50 && Object.values(v).every((x) => typeof x === 'string' && x.length <= 10_000)));

const historyField = yup
  .array()
  .typeError('history must be a list of turns')
  .max(50, 'history must have at most 50 turns')
  .of(
    yup.object({
      role: str().oneOf(['user', 'assistant'], 'history role must be user or assistant').required('history role is required'),
      content: text('history content').required('history content is required'),
    }),
  );

export const itemSchema = yup.object({
  input: yup
    .object({
      message: text('input.message').required('input.message is required').min(1, 'input.message must not be empty'),
      variables: variablesField,
      history: historyField,
    })
    .typeError('input must be an object')
    .required('input is required'),
  expected: text('expected').nullable(),
  tags: yup.array().typeError('tags must be a list').max(MAX_TAGS, `tags must have at most ${MAX_TAGS} entries`).of(str().typeError('tags must be text').max(50, 'a tag must be at most 50 characters').required()),
});

export const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toNewItem(v: yup.InferType<typeof itemSchema>): NewItem {
  const input: ItemInput = { message: v.input.message };
  if (v.input.variables && Object.keys(v.input.variables).length) input.variables = { ...v.input.variables };
  if (v.input.history?.length) input.history = v.input.history.map((t) => ({ role: t.role as 'user' | 'assistant', content: t.content }));
  return { input, expected: v.expected ?? null, tags: [...new Set(v.tags ?? [])] };
}

/**
 * One row of an imported file as an item. CSV columns (and JSONL keys): `input` (or `message`, `question`),
 * `expected` (or `answer`), `tags` (comma-separated in CSV, a list in JSONL), `variables` and `history` (JSON in CSV),
 * and `var:<name>` columns for single variables. In JSONL `input` may also be the object itself.
 */
export function rowToItemCandidate(row: Record<string, unknown>): unknown {
  const get = (...names: string[]) => {
    for (const n of names) if (Object.hasOwn(row, n) && row[n] !== '' && row[n] !== null && row[n] !== undefined) return row[n];
    return undefined;
  };
  const rawInput = get('input', 'message', 'question');
  const input: Record<string, unknown> = isPlainObject(rawInput) ? { ...rawInput } : { message: rawInput };
  const variables = parseJsonCell(get('variables'), 'variables');
  const vars: Record<string, unknown> = isPlainObject(variables) ? { ...variables } : {};
  for (const [k, v] of Object.entries(row)) if (k.startsWith('var:') && k.length > 4 && v !== '') vars[k.slice(4)] = v;
  if (Object.keys(vars).length) input.variables = vars;
  else if (variables !== undefined) input.variables = variables;
  const history = parseJsonCell(get('history'), 'history');
  if (history !== undefined) input.history = history;
  const tags = get('tags');
  return {
    input,
    expected: get('expected', 'answer') ?? null,
    tags: typeof tags === 'string' ? tags.split(/[,;]/).map((t) => t.trim()).filter(Boolean) : (tags ?? []),
  };
}

function parseJsonCell(v: unknown, name: string): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    throw ValidationError.field(name, `${name} must be JSON`);
  }
}

/** RFC 4180 quoting: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (v: string): string => (/[",\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The items as CSV (the import's columns), so an export imports back unchanged. */
export function itemsToCsv(items: DatasetItem[]): string {
  const lines = [['input', 'expected', 'tags', 'variables', 'history'].join(',')];
  for (const item of items) {
    lines.push(
      [item.input.message, item.expected ?? '', item.tags.join(','), item.input.variables ? JSON.stringify(item.input.variables) : '', item.input.history ? JSON.stringify(item.input.history) : '']
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The items as JSON Lines, one `{ input, expected, tags }` a line. */
export const itemsToJsonl = (items: DatasetItem[]): string => items.map((i) => JSON.stringify({ input: i.input, expected: i.expected, tags: i.tags })).join('\n') + (items.length ? '\n' : '');

export interface DatasetView {
  id: string;
  applicationId: string;
  name: string;
  description: string;
  version: number;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface ItemView {
  id: string;
  input: ItemInput;
  expected: string | null;
  tags: string[];
  createdAt: string;
}

export const toItemView = (i: DatasetItem): ItemView => ({ id: i.id, input: i.input, expected: i.expected, tags: i.tags, createdAt: i.createdAt.toISOString() });
export const toDatasetView = (d: Dataset, itemCount: number): DatasetView => ({
  id: d.id,
  applicationId: d.applicationId,
  name: d.name,
  description: d.description,
  version: d.version,
  itemCount,
  createdAt: d.createdAt.toISOString(),
  updatedAt: d.updatedAt.toISOString(),
});
