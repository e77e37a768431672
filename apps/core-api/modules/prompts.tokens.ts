import type { PromptTemplateRepository } from '../../../core/prompts/ports/prompt-template-repository.port';
import { token } from '../../shared/tokens';

export const PROMPT_TOKENS = {
  PromptTemplateRepository: token<PromptTemplateRepository>('PromptTemplateRepository'),
} as const;
