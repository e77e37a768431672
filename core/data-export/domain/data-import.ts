import * as yup from 'yup';
import { resolveModelSettings } from '../../ai/domain/model-settings';
import type { ProviderId } from '../../ai/domain/provider-id';
import { allowedOriginsField, descriptionField, nameField } from '../../applications/domain/application-fields';
import { configNameField, isActiveField, isDefaultField, labelField, rawField, trafficPercentField, versionNameField } from '../../model-configs/domain/config-fields';
import type { VersionCounters } from '../../model-configs/domain/config-version';
import { FULL_TRAFFIC, toHundredths } from '../../model-configs/domain/traffic';
import { MAX_CONFIGS_PER_APPLICATION, MAX_VERSIONS_PER_CONFIG } from '../../model-configs/domain/model-config';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import { extractVariables } from '../../prompts/domain/placeholders';
import { MAX_TEMPLATES_PER_APPLICATION } from '../../prompts/domain/prompt-template';
import { templateContentField, templateDefaultField, templateNameField } from '../../prompts/domain/template-fields';
import { ValidationError } from '../../shared/errors';
import { bool, num, str, validate } from '../../shared/validation';
import { EXPORT_DOCUMENT_VERSION, type ExportedMessage } from './data-export';

/** Applications one import request may hold (the 1 MB body limit usually comes first). */
export const MAX_IMPORT_RECORDS = 500;
const MAX_CONVERSATIONS = 10_000;
const MAX_MESSAGES = 10_000;
/** What a user may send in one message (the message endpoints' limit). */
const MAX_USER_MESSAGE_LENGTH = 100_000;
/** An answer may be longer than a question: up to the largest model's output (128,000 tokens) and more. */
const MAX_MESSAGE_LENGTH = 1_000_000;
const MAX_ERROR_LENGTH = 10_000;
const MAX_TOOL_CALLS = 200;
const CLIENT_ID_MAX = 200;

/** Text kept exactly as sent (no trimming): content and titles round-trip unchanged. */
const exactText = (name: string, max: number) =>
  yup
    .string()
    .transform((_v: unknown, original: unknown) => original)
    .typeError(`${name} must be a string`)
    .max(max, `${name} must be at most ${max} characters`);

const isoDate = (name: string) =>
  str().test('date', `${name} must be an ISO 8601 date-time`, (v) => v === undefined || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))));

const count = (name: string) =>
  num()
    .typeError(`${name} must be a number`)
    .integer(`${name} must be an integer`)
    .min(0, `${name} must not be negative`)
    .max(2_147_483_647, `${name} is too large`)
    .nullable();

const average = (name: string) =>
  num()
    .typeError(`${name} must be a number`)
    .min(0, `${name} must not be negative`)
    .test('finite', `${name} must be a finite number`, (v) => v === undefined || Number.isFinite(v));

const clientIdField = (name: string) => str().min(1, `${name} must not be empty`).max(CLIENT_ID_MAX, `${name} must be at most ${CLIENT_ID_MAX} characters`);

/** A list whose items are checked one by one below, so that one bad item is refused alone. */
const itemList = (name: string, max: number, what: string) =>
  yup.array().typeError(`${name} must be an array`).max(max, `an application holds at most ${max} ${what}`);

const countersSchema = (name: string) =>
  yup
    .object({
      requestCount: count(`${name}.requestCount`).nonNullable(`${name}.requestCount must be a number`),
      errorCount: count(`${name}.errorCount`).nonNullable(`${name}.errorCount must be a number`),
      avgLatencyMs: average(`${name}.avgLatencyMs`),
      avgTokensUsed: average(`${name}.avgTokensUsed`),
    })
    .default(undefined)
    .test('errors', `${name}.errorCount must not exceed ${name}.requestCount`, (c) => !c || (c.errorCount ?? 0) <= (c.requestCount ?? 0));

const versionSchema = yup.object({
  clientId: clientIdField('clientId'),
  version: versionNameField(),
  label: labelField().required('label is required'),
  provider: rawField(),
  modelId: rawField(),
  settings: rawField(),
  trafficPercent: trafficPercentField(),
  isActive: isActiveField(),
  counters: countersSchema('counters'),
  createdAt: isoDate('createdAt'),
});

const configSchema = yup.object({
  name: configNameField('name').required('name is required'),
  provider: rawField(),
  modelId: rawField(),
  settings: rawField(),
  isDefault: isDefaultField(),
  controlCounters: countersSchema('controlCounters'),
  versions: yup.array().of(versionSchema).max(MAX_VERSIONS_PER_CONFIG, `a model config holds at most ${MAX_VERSIONS_PER_CONFIG} versions`),
});

const templateSchema = yup.object({ name: templateNameField().required('name is required'), content: templateContentField().required('content is required'), isDefault: templateDefaultField() });

const toolCallSchema = yup.object({
  id: exactText('id', CLIENT_ID_MAX).defined('id is required'),
  name: exactText('name', CLIENT_ID_MAX).defined('name is required'),
  arguments: yup.mixed(),
});

const messageSchema = yup.object({
  role: str().required('role is required').oneOf(['user', 'assistant', 'tool'], 'role must be user, assistant or tool'),
  // Any string, the empty one too: an interrupted or failed answer, or a turn of tool calls, may have no text.
  content: exactText('content', MAX_MESSAGE_LENGTH).defined('content is required (it may be empty)').nonNullable('content must be a string'),
  status: str().oneOf(['complete', 'interrupted', 'failed'], 'status must be complete, interrupted or failed'),
  error: exactText('error', MAX_ERROR_LENGTH).nullable(),
  provider: str().max(50).nullable(),
  model: str().max(200).nullable(),
  promptTokens: count('promptTokens'),
  completionTokens: count('completionTokens'),
  totalTokens: count('totalTokens'),
  latencyMs: count('latencyMs'),
  rating: num().typeError('rating must be a number').integer().min(1, 'rating must be from 1 to 5').max(5, 'rating must be from 1 to 5').nullable(),
  sources: yup.mixed().nullable().test('sources', 'sources must be a list', (v) => v === undefined || v === null || Array.isArray(v)),
  configVersionClientId: clientIdField('configVersionClientId').nullable(),
  toolCalls: yup.array().of(toolCallSchema).max(MAX_TOOL_CALLS, `toolCalls holds at most ${MAX_TOOL_CALLS} calls`).nullable(),
  toolCallId: exactText('toolCallId', CLIENT_ID_MAX).nullable(),
  toolName: exactText('toolName', CLIENT_ID_MAX).nullable(),
  isError: bool().typeError('isError must be a boolean').nullable(),
  metadata: yup
    .mixed<Record<string, unknown>>()
    .nullable()
    .test('metadata', 'metadata must be an object', (v) => v === undefined || v === null || (typeof v === 'object' && !Array.isArray(v))),
  // Annotations, once they exist, are read here (and checked in `readMessage`).
  createdAt: isoDate('createdAt'),
});

const conversationSchema = yup.object({
  clientId: str().max(CLIENT_ID_MAX),
  title: exactText('title', 500).required('title is required'),
  status: str().oneOf(['active', 'archived'], 'status must be active or archived'),
  source: str().oneOf(['dashboard', 'api', 'widget'], 'source must be dashboard, api or widget'),
  configVersionClientId: clientIdField('configVersionClientId').nullable(),
  createdAt: isoDate('createdAt'),
  messages: yup.array().of(messageSchema).max(MAX_MESSAGES, `a conversation holds at most ${MAX_MESSAGES} messages`),
});

const applicationSchema = yup.object({
  clientId: str()
    .required('clientId is required (it makes a re-import skip what was imported)')
    .min(1, 'clientId must not be empty')
    .max(CLIENT_ID_MAX, `clientId must be at most ${CLIENT_ID_MAX} characters`),
  name: nameField().required('name is required'),
  description: descriptionField(),
  allowedOrigins: allowedOriginsField(),
  modelConfigs: itemList('modelConfigs', MAX_CONFIGS_PER_APPLICATION, 'model configs'),
  promptTemplates: itemList('promptTemplates', MAX_TEMPLATES_PER_APPLICATION, 'prompt templates'),
  conversations: itemList('conversations', MAX_CONVERSATIONS, 'conversations per import'),
});

export type ImportedCounters = VersionCounters;

export interface ImportedConfigVersion {
  /** What the record's conversations and messages name it by; null when nothing can (a hand-written version). */
  clientId: string | null;
  version: string;
  label: string;
  provider: ProviderId;
  modelId: string;
  settings: ModelSettings;
  /** Hundredths of a percent. */
  trafficShare: number;
  isActive: boolean;
  counters: ImportedCounters;
  createdAt: Date | null;
}

export interface ImportedModelConfig {
  name: string;
  provider: ProviderId;
  modelId: string;
  settings: ModelSettings;
  isDefault: boolean;
  controlCounters: ImportedCounters;
  versions: ImportedConfigVersion[];
}

/** A message as imported: the exported record's fields, its time optional (null: the time of the import). */
export type ImportedMessage = Omit<ExportedMessage, 'createdAt'> & { createdAt: Date | null };

export interface ImportedConversation {
  title: string;
  status: 'active' | 'archived';
  source: 'dashboard' | 'api' | 'widget';
  configVersionClientId: string | null;
  createdAt: Date | null;
  messages: ImportedMessage[];
}

/** One application of an import, checked by the rules its own endpoints apply. */
export interface ImportedApplication {
  clientId: string;
  name: string;
  description: string;
  allowedOrigins: string[];
  modelConfigs: ImportedModelConfig[];
  promptTemplates: Array<{ name: string; content: string; variables: string[]; isDefault: boolean }>;
  conversations: ImportedConversation[];
}

/** An item of an application left out of the import, and why: `item` is its place in the record, e.g. `conversations[3]`. */
export interface RefusedItem {
  item: string;
  error: string;
}

/** An application as it will be stored (its valid items), and the items refused. */
export interface ReadApplication {
  application: ImportedApplication;
  refused: RefusedItem[];
}

const ZERO: ImportedCounters = { requestCount: 0, errorCount: 0, avgLatencyMs: 0, avgTokensUsed: 0 };

/** A validation failure as one line that names each field's place within the item. */
function reasonOf(error: ValidationError): string {
  if (!error.details.length) return error.message;
  return error.details.map((d) => (d.path && !d.message.startsWith(d.path) ? `${d.path}: ${d.message}` : d.message)).join('; ');
}

/** Validates one item; a non-object is refused as such (not as a "request body"). */
async function validItem<S extends yup.AnyObjectSchema>(schema: S, raw: unknown, what: string): Promise<yup.InferType<S>> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError(`${what} must be an object`);
  return validate(schema, raw);
}

async function readConfig(raw: unknown): Promise<ImportedModelConfig> {
  const c = await validItem(configSchema, raw, 'a model config');
  const resolved = resolveModelSettings(c.provider, c.modelId, c.settings, { provider: 'provider', model: 'modelId', settings: 'settings' });
  const labels = new Set<string>();
  const versions = (c.versions ?? []).map((v, i): ImportedConfigVersion => {
    const at = `versions[${i}]`;
    const label = v!.label!;
    if (labels.has(label.toLowerCase())) throw ValidationError.field(`${at}.label`, `${at}.label: another version of this config already has this label`);
    labels.add(label.toLowerCase());
    const own = resolveModelSettings(v!.provider ?? resolved.provider, v!.modelId ?? resolved.model, v!.settings ?? {}, {
      provider: `${at}.provider`,
      model: `${at}.modelId`,
      settings: `${at}.settings`,
    });
    return {
      clientId: v!.clientId ?? null,
      version: v!.version ?? `v${i + 1}`,
      label,
      provider: own.provider,
      modelId: own.model,
      settings: own.settings,
      trafficShare: toHundredths(v!.trafficPercent ?? 0),
      isActive: v!.isActive ?? true,
      counters: countersOf(v!.counters),
      createdAt: v!.createdAt ? new Date(v!.createdAt) : null,
    };
  });
  const active = versions.filter((v) => v.isActive).map((v) => v.trafficShare);
  if (active.reduce((sum, s) => sum + s, 0) > FULL_TRAFFIC) throw ValidationError.field('versions', 'active versions may take at most 100% of the traffic together');
  return {
    name: c.name!,
    provider: resolved.provider,
    modelId: resolved.model,
    settings: resolved.settings,
    isDefault: c.isDefault === true,
    controlCounters: countersOf(c.controlCounters),
    versions,
  };
}

const countersOf = (c: { requestCount?: number | null; errorCount?: number | null; avgLatencyMs?: number; avgTokensUsed?: number } | undefined): ImportedCounters =>
  c ? { requestCount: c.requestCount ?? 0, errorCount: c.errorCount ?? 0, avgLatencyMs: c.avgLatencyMs ?? 0, avgTokensUsed: c.avgTokensUsed ?? 0 } : { ...ZERO };

/** The rules between a message's fields, by role; `versions` are the client ids the record's accepted configs hold. */
function readMessage(m: yup.InferType<typeof messageSchema>, at: string, versions: Set<string>): ImportedMessage {
  const role = m.role as ImportedMessage['role'];
  const status = (m.status ?? 'complete') as ImportedMessage['status'];
  const refuse = (field: string, message: string) => ValidationError.field(`${at}.${field}`, `${at}.${field}: ${message}`);
  if (role === 'user' && m.content!.length > MAX_USER_MESSAGE_LENGTH) throw refuse('content', `a user message is at most ${MAX_USER_MESSAGE_LENGTH} characters`);
  if (m.toolCalls && role !== 'assistant') throw refuse('toolCalls', 'only an assistant message calls tools');
  if (role === 'tool') {
    if (typeof m.toolCallId !== 'string') throw refuse('toolCallId', 'a tool message names the call it answers');
    if (typeof m.toolName !== 'string') throw refuse('toolName', 'a tool message names its tool');
  } else {
    for (const field of ['toolCallId', 'toolName', 'isError'] as const) {
      if (m[field] !== undefined && m[field] !== null) throw refuse(field, 'only a tool message has it');
    }
  }
  if (m.error != null && role !== 'assistant') throw refuse('error', 'only an assistant answer has an error');
  if (m.rating != null && (role !== 'assistant' || status === 'failed')) throw refuse('rating', 'only an assistant answer that did not fail is rated');
  const version = m.configVersionClientId ?? null;
  if (version !== null && !versions.has(version)) throw refuse('configVersionClientId', `names no A/B version of this application's model configs (${version})`);
  return {
    role,
    content: m.content!,
    status,
    error: m.error ?? null,
    provider: m.provider ?? null,
    model: m.model ?? null,
    promptTokens: m.promptTokens ?? null,
    completionTokens: m.completionTokens ?? null,
    totalTokens: m.totalTokens ?? null,
    latencyMs: m.latencyMs ?? null,
    rating: m.rating ?? null,
    sources: m.sources ?? null,
    configVersionClientId: version,
    toolCalls: m.toolCalls ? m.toolCalls.map((c) => ({ id: c!.id!, name: c!.name!, arguments: c!.arguments ?? null })) : null,
    toolCallId: role === 'tool' ? m.toolCallId! : null,
    toolName: role === 'tool' ? m.toolName! : null,
    isError: role === 'tool' ? m.isError === true : null,
    metadata: m.metadata ?? null,
    createdAt: m.createdAt ? new Date(m.createdAt) : null,
  };
}

async function readConversation(raw: unknown, versions: Set<string>): Promise<ImportedConversation> {
  const c = await validItem(conversationSchema, raw, 'a conversation');
  const version = c.configVersionClientId ?? null;
  if (version !== null && !versions.has(version)) {
    throw ValidationError.field('configVersionClientId', `configVersionClientId names no A/B version of this application's model configs (${version})`);
  }
  return {
    title: c.title!,
    status: (c.status ?? 'active') as 'active' | 'archived',
    source: (c.source ?? 'dashboard') as 'dashboard' | 'api' | 'widget',
    configVersionClientId: version,
    createdAt: c.createdAt ? new Date(c.createdAt) : null,
    messages: (c.messages ?? []).map((m, i) => readMessage(m!, `messages[${i}]`, versions)),
  };
}

/**
 * Validates one record of an import. What is refused, and at which level (docs/data-export.md):
 * - the application as a whole (a ValidationError) when its own fields are bad (clientId, name,
 *   description, origins), or a list is not a list or is too long;
 * - one item alone, listed in `refused` with its reason, when it is bad: a model config with its A/B
 *   versions, a prompt template (either one also when it claims to be the default after another), or a
 *   conversation with its messages (a bad message refuses its whole conversation, never leaving half of one). A conversation or message naming an A/B version that is
 *   not among the accepted configs' versions is refused the same way, so no assignment is lost silently.
 */
export async function readImportedApplication(raw: unknown): Promise<ReadApplication> {
  const body = await validItem(applicationSchema, raw, 'an application');
  const refused: RefusedItem[] = [];
  const attempt = async <T>(item: string, read: () => Promise<T>): Promise<T | null> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      refused.push({ item, error: reasonOf(error) });
      return null;
    }
  };

  // One default at most, as on the endpoints: a later item claiming it too is the bad one.
  const secondDefault = (kind: string, first: number) => new ValidationError(`isDefault: ${kind}[${first}] is already the default (an application has one at most)`);

  const configs: ImportedModelConfig[] = [];
  const versionIds = new Set<string>();
  let defaultConfig: number | null = null;
  for (const [i, rawConfig] of (body.modelConfigs ?? []).entries()) {
    const config = await attempt(`modelConfigs[${i}]`, async () => {
      const read = await readConfig(rawConfig);
      const ids = read.versions.flatMap((v) => (v.clientId === null ? [] : [v.clientId]));
      const twice = ids.find((id, k) => versionIds.has(id) || ids.indexOf(id) !== k);
      if (twice !== undefined) throw ValidationError.field('versions', `versions: the clientId ${twice} names two versions of this application`);
      if (read.isDefault && defaultConfig !== null) throw secondDefault('modelConfigs', defaultConfig);
      return read;
    });
    if (!config) continue;
    if (config.isDefault) defaultConfig = i;
    for (const v of config.versions) if (v.clientId !== null) versionIds.add(v.clientId);
    configs.push(config);
  }
  // As on creation, the first config becomes the default when none is named.
  if (configs.length && defaultConfig === null) configs[0]!.isDefault = true;

  const templates: ImportedApplication['promptTemplates'] = [];
  let defaultTemplate: number | null = null;
  for (const [i, rawTemplate] of (body.promptTemplates ?? []).entries()) {
    const t = await attempt(`promptTemplates[${i}]`, async () => {
      const read = await validItem(templateSchema, rawTemplate, 'a prompt template');
      if (read.isDefault === true && defaultTemplate !== null) throw secondDefault('promptTemplates', defaultTemplate);
      return read;
    });
    if (!t) continue;
    if (t.isDefault === true) defaultTemplate = i;
    templates.push({ name: t.name!, content: t.content!, variables: extractVariables(t.content!), isDefault: t.isDefault === true });
  }

  const conversations: ImportedConversation[] = [];
  for (const [i, rawConversation] of (body.conversations ?? []).entries()) {
    const c = await attempt(`conversations[${i}]`, () => readConversation(rawConversation, versionIds));
    if (c) conversations.push(c);
  }

  return {
    application: {
      clientId: body.clientId,
      name: body.name,
      description: body.description ?? '',
      allowedOrigins: (body.allowedOrigins ?? []) as string[],
      modelConfigs: configs,
      promptTemplates: templates,
      conversations,
    },
    refused,
  };
}

/** The versions of the document an import reads: every version up to this one. */
export const importDocumentSchema = yup.object({
  format: str(),
  version: num()
    .typeError('version must be a number')
    .integer('version must be an integer')
    .min(1, 'version must be at least 1')
    .max(EXPORT_DOCUMENT_VERSION, `version ${'${value}'} is newer than this platform reads (up to ${EXPORT_DOCUMENT_VERSION}); import it into an up-to-date install`),
  applications: yup.mixed().required('applications is required'),
});
