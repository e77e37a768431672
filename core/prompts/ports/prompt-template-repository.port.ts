import type { PromptTemplate } from '../domain/prompt-template';

export interface NewPromptTemplate {
  applicationId: string;
  name: string;
  content: string;
  variables: string[];
  /** Become the application's default template (the previous default is unset). */
  makeDefault: boolean;
}

export type PromptTemplateChanges = Partial<{ name: string; content: string; variables: string[] }>;

/**
 * Prompt templates of applications. Changes of the default run serialised per application, so there
 * is never more than one default (the database checks it too).
 */
export interface PromptTemplateRepository {
  /** ConflictError when the application already holds MAX_TEMPLATES_PER_APPLICATION. */
  create(template: NewPromptTemplate): Promise<PromptTemplate>;
  /** The template with its application's owner, for ownership checks in one query. */
  /** With its application's owner and team (null or absent for a personal application). */
  findWithOwner(id: string): Promise<{ template: PromptTemplate; ownerId: string; teamId?: string | null } | null>;
  listByApplication(applicationId: string, offset: number, limit: number): Promise<PromptTemplate[]>;
  findDefault(applicationId: string): Promise<PromptTemplate | null>;
  update(id: string, changes: PromptTemplateChanges): Promise<PromptTemplate>;
  /** `true`: the application's only default; `false`: no longer the default. */
  setDefault(id: string, isDefault: boolean): Promise<PromptTemplate>;
  delete(id: string): Promise<void>;
}
