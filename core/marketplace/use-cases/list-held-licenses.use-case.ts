import type { Actor } from '../../shared/actor';
import { parsePageRequest, offsetOf, type Page } from '../../shared/pagination';
import { toHeldLicenseView, type HeldLicenseView } from '../domain/views';
import type { LicenseRepository } from '../ports/marketplace-repository.port';
import { single } from './browse.use-cases';
import { signedIn } from './marketplace-access';

/** The caller's own licenses, newest first, paged (`GET /marketplace/licenses`): a buyer's "Your licenses". */
export class ListHeldLicensesUseCase {
  constructor(private readonly deps: { licenses: LicenseRepository }) {}

  async execute(query: Record<string, unknown>, actor: Actor | undefined): Promise<Page<HeldLicenseView>> {
    const holder = signedIn(actor);
    const page = parsePageRequest({ page: single(query, 'page'), limit: single(query, 'limit') });
    const { held, total } = await this.deps.licenses.listHeld(holder.userId, offsetOf(page), page.limit);
    return { data: held.map((h) => toHeldLicenseView(h.license, h.item)), total, page: page.page, limit: page.limit };
  }
}
