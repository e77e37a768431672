import type { ApplicationTemplate } from '../domain/templates';

/**
 * The rows of other areas a template deployment adds beside the application, written inside the caller's
 * unit of work (so they commit with everything else or not at all).
 */
export interface TemplateParts {
  addModelConfig(applicationId: string, config: ApplicationTemplate['modelConfig']): Promise<{ id: string }>;
  addPrompt(applicationId: string, prompt: NonNullable<ApplicationTemplate['prompt']>): Promise<{ id: string }>;
}
