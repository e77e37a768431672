import type { Actor } from '../../shared/actor';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { toUploadView, type UploadView } from '../domain/upload';
import type { UploadRepository } from '../ports/upload-repository.port';

/** The caller's uploads, newest first, paged. */
export class ListUploadsUseCase {
  constructor(private readonly deps: { uploads: UploadRepository }) {}

  async execute(query: { page?: unknown; limit?: unknown }, actor: Actor): Promise<Page<UploadView>> {
    const page = parsePageRequest(query);
    const { items, total } = await this.deps.uploads.listByOwner(actor.userId, offsetOf(page), page.limit);
    return { data: items.map(toUploadView), total, page: page.page, limit: page.limit };
  }
}
