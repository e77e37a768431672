import * as yup from 'yup';
import { bool, str } from '../../shared/validation';
import { MAX_TEMPLATE_LENGTH, MAX_TEMPLATE_NAME_LENGTH } from './prompt-template';
import { MAX_VARIABLES, extractVariables } from './placeholders';

export const templateNameField = () =>
  str().min(1, 'name must not be empty').max(MAX_TEMPLATE_NAME_LENGTH, `name must be at most ${MAX_TEMPLATE_NAME_LENGTH} characters`);

/** Content is kept exactly as sent (no trimming): whitespace can matter in a prompt. */
export const templateContentField = () =>
  yup
    .string()
    .transform((_v: unknown, original: unknown) => original)
    .min(1, 'content must not be empty')
    .max(MAX_TEMPLATE_LENGTH, `content must be at most ${MAX_TEMPLATE_LENGTH} characters`)
    .test('variables', `content may hold at most ${MAX_VARIABLES} different placeholders`, (v) => v === undefined || extractVariables(v).length <= MAX_VARIABLES);

export const templateDefaultField = () => bool().typeError('isDefault must be a boolean');
