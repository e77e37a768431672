import { randomBytes } from 'node:crypto';
import * as yup from 'yup';
import { slugify } from '../../applications/domain/application';
import type { ApplicationRepository } from '../../applications/ports/application-repository.port';
import type { CreateApplicationUseCase } from '../../applications/use-cases/create-application.use-case';
import { validateChunkOptions } from '../../knowledge/domain/chunker';
import type { EmbedderRegistry } from '../../knowledge/ports/embedder-registry.port';
import type { KnowledgeDocumentRepository } from '../../knowledge/ports/knowledge-document-repository.port';
import { PROCESS_DOCUMENT_JOB, type ProcessDocumentJob } from '../../knowledge/use-cases/process-document.use-case';
import type { Actor } from '../../shared/actor';
import { NotFoundError } from '../../shared/errors';
import { newId } from '../../shared/ids';
import type { JobQueue } from '../../shared/job-queue.port';
import type { UnitOfWork } from '../../shared/unit-of-work.port';
import { str, validate } from '../../shared/validation';
import type { FileStore } from '../../uploads/ports/file-store.port';
import { documentsFolder } from '../../uploads/use-cases/stored-files-cleanup';
import { parseDefinition } from '../domain/definition';
import { templateById, TEMPLATES, toTemplateView } from '../domain/templates';
import { toWorkflowView, type WorkflowView } from '../domain/workflow';
import type { TemplateParts } from '../ports/template-parts.port';
import type { WorkflowRepository } from '../ports/workflow-repository.port';

/** `GET /api/templates`: the catalogue shipped with the platform. */
export class ListTemplatesUseCase {
  execute() {
    return TEMPLATES.map(toTemplateView);
  }
}

const deploySchema = yup.object({
  name: str().matches(/\S/, 'name must not be blank').max(100, 'name must be at most 100 characters'),
});

export interface DeployTemplateDeps {
  unitOfWork: UnitOfWork;
  createApplication: CreateApplicationUseCase;
  applications: ApplicationRepository;
  parts: TemplateParts;
  workflows: WorkflowRepository;
  documents?: KnowledgeDocumentRepository;
  files?: FileStore;
  knowledgeQueue?: JobQueue;
  embedders?: EmbedderRegistry;
}

/**
 * `POST /api/templates/:id/deploy { name? }`: the application with its model config, prompt, theme,
 * workflows and example knowledge, in one transaction (a failure anywhere leaves nothing). The example
 * documents' files are written first and removed again if the transaction fails; their processing is
 * queued after the commit.
 */
export class DeployTemplateUseCase {
  constructor(private readonly deps: DeployTemplateDeps) {}

  async execute(id: string, body: unknown, actor: Actor) {
    const template = templateById(id);
    if (!template) throw new NotFoundError('Template');
    const { name } = await validate(deploySchema, body ?? {});
    const definitions = template.workflows.map((w) => parseDefinition(w.definition));
    const { documents, files, knowledgeQueue, embedders } = this.deps;
    const withKnowledge = template.knowledge.length > 0 && documents && files && knowledgeQueue && embedders;
    const written: string[] = [];
    const queued: string[] = [];
    try {
      const created = await this.deps.unitOfWork.run(async () => {
        const appName = name ?? template.application.name;
        // A slug of its own: inside one transaction a taken slug could not be retried (the failed insert ends it).
        const slug = `${slugify(appName).slice(0, 50).replace(/-+$/, '') || 'app'}-${randomBytes(4).toString('hex')}`;
        const app = await this.deps.createApplication.execute({ name: appName, description: template.application.description, slug }, actor);
        const config = await this.deps.parts.addModelConfig(app.id, template.modelConfig);
        const prompt = template.prompt ? await this.deps.parts.addPrompt(app.id, template.prompt) : null;
        await this.deps.applications.update(app.id, { themeId: template.theme });
        const workflows: WorkflowView[] = [];
        for (const [i, w] of template.workflows.entries()) {
          workflows.push(toWorkflowView(await this.deps.workflows.create({ ownerId: actor.userId, applicationId: app.id, name: w.name, description: w.description, definition: definitions[i]! })));
        }
        const knowledge: Array<{ id: string; fileName: string }> = [];
        if (withKnowledge) {
          const embedder = embedders.get('local');
          const chunking = validateChunkOptions({});
          for (const doc of template.knowledge) {
            const bytes = Buffer.from(doc.text, 'utf8');
            const storageKey = `${documentsFolder({ id: app.id, ownerId: actor.userId })}/${newId()}.md`;
            await files.write(storageKey, bytes);
            written.push(storageKey);
            const stored = await documents.create({
              applicationId: app.id,
              fileName: doc.fileName,
              format: 'md',
              sizeBytes: bytes.length,
              storageKey,
              chunkSize: chunking.chunkSize,
              chunkOverlap: chunking.chunkOverlap,
              embeddingProvider: 'local',
              embeddingModel: embedder.model,
              embeddingDimension: embedder.dimension,
            });
            queued.push(stored.id);
            knowledge.push({ id: stored.id, fileName: stored.fileName });
          }
        }
        return {
          template: template.id,
          application: { id: app.id, name: app.name, slug: app.slug },
          modelConfig: { id: config.id, provider: template.modelConfig.provider, model: template.modelConfig.modelId },
          prompt: prompt ? { id: prompt.id, name: template.prompt!.name } : null,
          theme: template.theme,
          workflows: workflows.map((w) => ({ id: w.id, name: w.name })),
          knowledgeDocuments: knowledge,
          ...(template.exampleInput ? { exampleInput: template.exampleInput } : {}),
        };
      });
      for (const documentId of queued) await knowledgeQueue!.enqueue<ProcessDocumentJob>(PROCESS_DOCUMENT_JOB, { documentId }, { id: documentId }).catch(() => undefined);
      return created;
    } catch (error) {
      for (const key of written) await files!.delete(key).catch(() => undefined);
      throw error;
    }
  }
}
