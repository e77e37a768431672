import * as yup from 'yup';
import { authorize, type TeamRoleLookup } from '../../access/access-policy';
import type { AccessAction } from '../../access/roles';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { str, uuidField, validate } from '../../shared/validation';
import type { FileStore } from '../../uploads/ports/file-store.port';
import { MAX_BASE_DESCRIPTION, MAX_BASE_NAME, MAX_BASES_PER_OWNER, toBaseView, type KnowledgeBase, type KnowledgeBaseView } from '../domain/knowledge-base';
import { toDocumentView, type KnowledgeDocumentView } from '../domain/knowledge-document';
import type { KnowledgeBaseRepository } from '../ports/knowledge-base-repository.port';
import type { KnowledgeDocumentRepository } from '../ports/knowledge-document-repository.port';

/**
 * The base if the caller may perform `action` on it (core/access decides, on the base's owner and team; an
 * application's own base is held as its application is). One the caller may not see is a 404 that does not
 * tell "not yours" from "does not exist"; one they see but whose role does not allow `action`, a 403.
 */
export async function findOwnedBase(
  bases: KnowledgeBaseRepository,
  id: unknown,
  actor: Actor,
  action: AccessAction,
  teams: TeamRoleLookup | null,
): Promise<KnowledgeBase> {
  const found = isUuid(id) ? await bases.findById(id) : null;
  await authorize(found, actor, action, 'Knowledge base', teams);
  return found!;
}

const name = () => str().min(1, 'name must not be empty').max(MAX_BASE_NAME, `name must be at most ${MAX_BASE_NAME} characters`);
const description = () => str().max(MAX_BASE_DESCRIPTION, `description must be at most ${MAX_BASE_DESCRIPTION} characters`);

const createSchema = yup.object({
  name: name().required('name is required'),
  description: description(),
  teamId: uuidField('teamId').nullable(),
});

const updateSchema = yup.object({ name: name(), description: description() });

export interface KnowledgeBasesDeps {
  bases: KnowledgeBaseRepository;
  documents: KnowledgeDocumentRepository;
  files: FileStore;
  teams?: TeamRoleLookup;
}

/**
 * Knowledge bases of their own (docs/knowledge.md): owned by a user or a team, used by any number of
 * applications. Reading needs the Viewer role on the base's team, changing its documents or details the
 * Member role, deleting it the Owner's (a personal base: its owner alone), as everywhere (core/access).
 */
export class KnowledgeBasesUseCases {
  constructor(private readonly deps: KnowledgeBasesDeps) {}

  async list(query: { teamId?: unknown; page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<KnowledgeBaseView>> {
    const page = parsePageRequest(query);
    let teamId: string | undefined;
    if (query.teamId !== undefined && query.teamId !== '') {
      // A team the caller is not in is a 404, as if it did not exist.
      await authorize(isUuid(query.teamId) ? { ownerId: '', teamId: query.teamId } : null, actor, 'read', 'Team', this.teams);
      teamId = query.teamId as string;
    }
    const { items, total } = await this.deps.bases.listVisible(actor.userId, { teamId }, offsetOf(page), page.limit);
    const counts = await this.deps.bases.documentCounts(items.map((b) => b.id));
    const data = items.map((b) => toBaseView(b, counts.get(b.id) ?? 0));
    return { data, total, page: page.page, limit: page.limit };
  }

  async get(id: string, actor: Actor): Promise<KnowledgeBaseView> {
    const base = await findOwnedBase(this.deps.bases, id, actor, 'read', this.teams);
    return toBaseView(base, await this.deps.bases.documentCount(base.id));
  }

  /** A personal base, or (with `teamId`) a team's, which needs the Member role there. */
  async create(body: unknown, actor: Actor): Promise<KnowledgeBaseView> {
    const input = await validate(createSchema, body);
    const teamId = input.teamId ?? null;
    if (teamId) await authorize({ ownerId: '', teamId }, actor, 'write', 'Team', this.teams);
    const count = await this.deps.bases.countOwned(teamId ? { teamId } : { ownerId: actor.userId });
    if (count >= MAX_BASES_PER_OWNER) throw new ConflictError(`${teamId ? 'The team keeps' : 'You keep'} ${MAX_BASES_PER_OWNER} knowledge bases already; delete one first`);
    const base = await this.deps.bases.create({ teamId, name: input.name, description: input.description ?? '', createdBy: actor.userId });
    if (!base) throw new NotFoundError('Team');
    return toBaseView(base, 0);
  }

  async update(id: string, body: unknown, actor: Actor): Promise<KnowledgeBaseView> {
    const input = await validate(updateSchema, body);
    const base = await findOwnedBase(this.deps.bases, id, actor, 'write', this.teams);
    if (base.applicationId && input.name !== undefined) {
      throw ValidationError.field('name', "An application's own knowledge base is named after its application; rename the application instead");
    }
    const updated = await this.deps.bases.update(base.id, { name: input.name, description: input.description });
    if (!updated) throw new NotFoundError('Knowledge base');
    return toBaseView(updated, await this.deps.bases.documentCount(base.id));
  }

  /** Deletes the base with its documents, their chunks and files; the applications that used it stop using it. */
  async remove(id: string, actor: Actor): Promise<void> {
    const base = await findOwnedBase(this.deps.bases, id, actor, 'delete', this.teams);
    if (base.applicationId) throw new ConflictError("An application's own knowledge base goes with its application; delete its documents instead");
    // The keys are read while the rows that name them exist; the files go after the rows.
    const keys = await this.deps.documents.storageKeysByApplication(base.id);
    if (!(await this.deps.bases.delete(base.id))) throw new NotFoundError('Knowledge base');
    for (const key of keys) await this.deps.files.delete(key).catch(() => undefined);
  }

  async listDocuments(id: string, query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<KnowledgeDocumentView>> {
    const page = parsePageRequest(query);
    const base = await findOwnedBase(this.deps.bases, id, actor, 'read', this.teams);
    const { items, total } = await this.deps.documents.listByApplication(base.id, offsetOf(page), page.limit);
    return { data: items.map(toDocumentView), total, page: page.page, limit: page.limit };
  }

  private get teams(): TeamRoleLookup | null {
    return this.deps.teams ?? null;
  }
}
