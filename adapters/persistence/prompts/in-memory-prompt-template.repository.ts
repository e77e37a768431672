import { randomUUID } from 'node:crypto';
import { MAX_TEMPLATES_PER_APPLICATION, type PromptTemplate } from '../../../core/prompts/domain/prompt-template';
import type { NewPromptTemplate, PromptTemplateChanges, PromptTemplateRepository } from '../../../core/prompts/ports/prompt-template-repository.port';
import { ConflictError, NotFoundError } from '../../../core/shared/errors';

/** Prompt templates in memory, for unit tests. `owners` maps application ids to their owners. */
export class InMemoryPromptTemplateRepository implements PromptTemplateRepository {
  readonly templates = new Map<string, PromptTemplate>();

  constructor(private readonly owners: (applicationId: string) => string | undefined) {}

  async create(t: NewPromptTemplate) {
    if (!this.owners(t.applicationId)) throw new NotFoundError('Application');
    const mine = this.ofApplication(t.applicationId);
    if (mine.length >= MAX_TEMPLATES_PER_APPLICATION) throw new ConflictError(`An application holds at most ${MAX_TEMPLATES_PER_APPLICATION} prompt templates`);
    if (t.makeDefault) for (const x of mine) x.isDefault = false;
    const now = new Date();
    const { makeDefault, ...fields } = t;
    const template: PromptTemplate = { id: randomUUID(), ...fields, isDefault: makeDefault, createdAt: now, updatedAt: now };
    this.templates.set(template.id, template);
    return structuredClone(template);
  }

  async findWithOwner(id: string) {
    const template = this.templates.get(id);
    const ownerId = template && this.owners(template.applicationId);
    return template && ownerId ? { template: structuredClone(template), ownerId } : null;
  }

  async listByApplication(applicationId: string, offset: number, limit: number) {
    return this.ofApplication(applicationId).slice(offset, offset + limit).map((t) => structuredClone(t));
  }

  async findDefault(applicationId: string) {
    const found = this.ofApplication(applicationId).find((t) => t.isDefault);
    return found ? structuredClone(found) : null;
  }

  async update(id: string, changes: PromptTemplateChanges) {
    const t = this.templates.get(id);
    if (!t) throw new NotFoundError('Prompt template');
    Object.assign(t, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)), { updatedAt: new Date() });
    return structuredClone(t);
  }

  async setDefault(id: string, isDefault: boolean) {
    const t = this.templates.get(id);
    if (!t) throw new NotFoundError('Prompt template');
    if (isDefault) for (const x of this.ofApplication(t.applicationId)) x.isDefault = false;
    t.isDefault = isDefault;
    return structuredClone(t);
  }

  async delete(id: string) {
    this.templates.delete(id);
  }

  private ofApplication(applicationId: string) {
    return [...this.templates.values()].filter((t) => t.applicationId === applicationId);
  }
}
