import * as yup from 'yup';
import { resolveModelSettings } from '../../ai/domain/model-settings';
import type { ProviderId } from '../../ai/domain/provider-id';
import { allowedOriginsField, descriptionField, nameField } from '../../applications/domain/application-fields';
import { configNameField, isDefaultField, rawField } from '../../model-configs/domain/config-fields';
import { MAX_CONFIGS_PER_APPLICATION } from '../../model-configs/domain/model-config';
import type { ModelSettings } from '../../ai/ports/llm-provider.port';
import { extractVariables } from '../../prompts/domain/placeholders';
import { MAX_TEMPLATES_PER_APPLICATION } from '../../prompts/domain/prompt-template';
import { templateContentField, templateDefaultField, templateNameField } from '../../prompts/domain/template-fields';
import { ValidationError } from '../../shared/errors';
import { num, str, validate } from '../../shared/validation';
import type { ExportedMessage } from './data-export';

/** Applications one import request may hold (the 1 MB body limit usually comes first). */
export const MAX_IMPORT_RECORDS = 500;
const MAX_CONVERSATIONS = 10_000;
const MAX_MESSAGES = 10_000;
const MAX_MESSAGE_LENGTH = 100_000;
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

const messageSchema = yup.object({
  role: str().required('role is required').oneOf(['user', 'assistant'], 'role must be user or assistant'),
  content: exactText('content', MAX_MESSAGE_LENGTH).required('content is required'),
  status: str().oneOf(['complete', 'interrupted', 'failed'], 'status must be complete, interrupted or failed'),
  provider: str().max(50).nullable(),
  model: str().max(200).nullable(),
  promptTokens: count('promptTokens'),
  completionTokens: count('completionTokens'),
  totalTokens: count('totalTokens'),
  latencyMs: count('latencyMs'),
  rating: num().typeError('rating must be a number').integer().min(1, 'rating must be from 1 to 5').max(5, 'rating must be from 1 to 5').nullable(),
  sources: yup.mixed().nullable(),
  createdAt: isoDate('createdAt'),
});

const conversationSchema = yup.object({
  clientId: str().max(CLIENT_ID_MAX),
  title: exactText('title', 500).required('title is required'),
  status: str().oneOf(['active', 'archived'], 'status must be active or archived'),
  source: str().oneOf(['dashboard', 'api', 'widget'], 'source must be dashboard, api or widget'),
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
  modelConfigs: yup
    .array()
    .of(yup.object({ name: configNameField('name').required('name is required'), provider: rawField(), modelId: rawField(), settings: rawField(), isDefault: isDefaultField() }))
    .max(MAX_CONFIGS_PER_APPLICATION, `an application holds at most ${MAX_CONFIGS_PER_APPLICATION} model configs`),
  promptTemplates: yup
    .array()
    .of(yup.object({ name: templateNameField().required('name is required'), content: templateContentField().required('content is required'), isDefault: templateDefaultField() }))
    .max(MAX_TEMPLATES_PER_APPLICATION, `an application holds at most ${MAX_TEMPLATES_PER_APPLICATION} prompt templates`),
  conversations: yup.array().of(conversationSchema).max(MAX_CONVERSATIONS, `an application holds at most ${MAX_CONVERSATIONS} conversations per import`),
});

/** A message as imported: the exported record's fields, its time optional (null: the time of the import). */
export type ImportedMessage = Omit<ExportedMessage, 'createdAt'> & { createdAt: Date | null };

/** One application of an import, checked by the rules its own endpoints apply. */
export interface ImportedApplication {
  clientId: string;
  name: string;
  description: string;
  allowedOrigins: string[];
  modelConfigs: Array<{ name: string; provider: ProviderId; modelId: string; settings: ModelSettings; isDefault: boolean }>;
  promptTemplates: Array<{ name: string; content: string; variables: string[]; isDefault: boolean }>;
  conversations: Array<{ title: string; status: 'active' | 'archived'; source: 'dashboard' | 'api' | 'widget'; createdAt: Date | null; messages: ImportedMessage[] }>;
}

/** Validates one record of an import; a ValidationError names the first problems. */
export async function readImportedApplication(raw: unknown): Promise<ImportedApplication> {
  const body = await validate(applicationSchema, raw);
  const configs = (body.modelConfigs ?? []).map((c, i) => {
    const resolved = resolveModelSettings(c!.provider, c!.modelId, c!.settings, {
      provider: `modelConfigs[${i}].provider`,
      model: `modelConfigs[${i}].modelId`,
      settings: `modelConfigs[${i}].settings`,
    });
    return { name: c!.name!, provider: resolved.provider, modelId: resolved.model, settings: resolved.settings, isDefault: c!.isDefault === true };
  });
  if (configs.filter((c) => c.isDefault).length > 1) throw ValidationError.field('modelConfigs', 'at most one model config may be the default');
  // As on creation, the first config becomes the default when none is named.
  if (configs.length && !configs.some((c) => c.isDefault)) configs[0]!.isDefault = true;
  const templates = (body.promptTemplates ?? []).map((t) => ({ name: t!.name!, content: t!.content!, variables: extractVariables(t!.content!), isDefault: t!.isDefault === true }));
  if (templates.filter((t) => t.isDefault).length > 1) throw ValidationError.field('promptTemplates', 'at most one prompt template may be the default');
  return {
    clientId: body.clientId,
    name: body.name,
    description: body.description ?? '',
    allowedOrigins: (body.allowedOrigins ?? []) as string[],
    modelConfigs: configs,
    promptTemplates: templates,
    conversations: (body.conversations ?? []).map((c) => ({
      title: c!.title!,
      status: (c!.status ?? 'active') as 'active' | 'archived',
      source: (c!.source ?? 'dashboard') as 'dashboard' | 'api' | 'widget',
      createdAt: c!.createdAt ? new Date(c!.createdAt) : null,
      messages: (c!.messages ?? []).map((m) => ({
        role: m!.role as 'user' | 'assistant',
        content: m!.content!,
        status: (m!.status ?? 'complete') as 'complete' | 'interrupted' | 'failed',
        provider: m!.provider ?? null,
        model: m!.model ?? null,
        promptTokens: m!.promptTokens ?? null,
        completionTokens: m!.completionTokens ?? null,
        totalTokens: m!.totalTokens ?? null,
        latencyMs: m!.latencyMs ?? null,
        rating: m!.rating ?? null,
        sources: m!.sources ?? null,
        createdAt: m!.createdAt ? new Date(m!.createdAt) : null,
      })),
    })),
  };
}

export const importDocumentSchema = yup.object({
  format: str(),
  version: num(),
  applications: yup.mixed().required('applications is required'),
});
