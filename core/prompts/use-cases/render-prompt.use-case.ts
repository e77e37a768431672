import type { TeamRoleLookup } from '../../access/access-policy';
import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { idField, validate } from '../../shared/validation';
import { extractVariables, MAX_VALUE_LENGTH, renderTemplate, type VariableValue } from '../domain/placeholders';
import { templateContentField } from '../domain/template-fields';
import type { PromptTemplateRepository } from '../ports/prompt-template-repository.port';
import { findOwnedTemplate } from './find-owned-template';

/** More than any template can use (50 placeholders), few enough to bound the work per request. */
const MAX_GIVEN_VALUES = 200;

const schema = yup.object({
  templateId: idField(),
  content: templateContentField(),
  variables: yup
    .mixed<Record<string, unknown>>()
    .test('variables', 'variables must be an object', (v) => v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v))),
});

export interface RenderedPrompt {
  rendered: string;
  variables: string[];
}

/**
 * Renders a stored template (`templateId`, one of the caller's) or given `content` with values for
 * its `{{name}}` placeholders: plain single-pass substitution, never evaluated.
 */
export class RenderPromptUseCase {
  constructor(private readonly deps: { templates: PromptTemplateRepository; teams?: TeamRoleLookup }) {}

  async execute(input: unknown, actor: Actor): Promise<RenderedPrompt> {
    const body = await validate(schema, input);
    if ((body.templateId === undefined) === (body.content === undefined)) {
      throw ValidationError.field('templateId', 'Give either templateId or content');
    }
    const content = body.templateId !== undefined ? (await findOwnedTemplate(this.deps.templates, body.templateId, actor, 'read', this.deps.teams ?? null)).content : body.content!;
    const values = readValues(body.variables ?? {});
    return { rendered: renderTemplate(content, values), variables: extractVariables(content) };
  }
}

function readValues(raw: Record<string, unknown>): Record<string, VariableValue> {
  const entries = Object.entries(raw);
  if (entries.length > MAX_GIVEN_VALUES) throw ValidationError.field('variables', `variables may hold at most ${MAX_GIVEN_VALUES} values`);
  const values: Record<string, VariableValue> = Object.create(null);
  for (const [name, value] of entries) {
    const path = `variables.${name}`;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw ValidationError.field(path, `${path} must be a string, number or boolean`);
    }
    if (typeof value === 'number' && !Number.isFinite(value)) throw ValidationError.field(path, `${path} must be a finite number`);
    if (String(value).length > MAX_VALUE_LENGTH) throw ValidationError.field(path, `${path} must be at most ${MAX_VALUE_LENGTH} characters`);
    values[name] = value;
  }
  return values;
}
