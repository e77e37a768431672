/** A reusable prompt of an application, with `{{name}}` placeholders (ARCHITECTURE.md decisions). */
export interface PromptTemplate {
  id: string;
  applicationId: string;
  name: string;
  content: string;
  /** Placeholder names in order of first appearance. */
  variables: string[];
  /** At most one per application; its content is the system prompt when no config sets one. */
  isDefault: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface PromptTemplateView {
  id: string;
  applicationId: string;
  name: string;
  content: string;
  variables: string[];
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

export const toPromptTemplateView = (t: PromptTemplate): PromptTemplateView => ({
  id: t.id,
  applicationId: t.applicationId,
  name: t.name,
  content: t.content,
  variables: t.variables,
  isDefault: t.isDefault,
  createdAt: t.createdAt.toISOString(),
  updatedAt: t.updatedAt.toISOString(),
});

/** A template can become a system prompt, so it shares that limit (SPEC 2.3 via model-settings). */
export const MAX_TEMPLATE_LENGTH = 20_000;
export const MAX_TEMPLATE_NAME_LENGTH = 100;
export const MAX_TEMPLATES_PER_APPLICATION = 100;
