import type { Actor } from '../../shared/actor';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { Item, ItemKind } from '../domain/item';
import type { CatalogRepository } from '../ports/marketplace-repository.port';

export const KIND_NAME: Record<ItemKind, string> = { plugin: 'Plugin', theme: 'Theme' };

export const isAdmin = (actor: Actor | undefined): boolean => actor?.role === 'admin';
export const mayManage = (item: Item, actor: Actor | undefined): boolean => !!actor && (isAdmin(actor) || item.authorId === actor.userId);

/** The signed-in caller, or a 401. */
export function signedIn(actor: Actor | undefined): Actor {
  if (!actor) throw new UnauthorizedError('Sign in to do this');
  return actor;
}

/** The administrator, or 401 / 403. */
export function adminOnly(actor: Actor | undefined): Actor {
  const a = signedIn(actor);
  if (!isAdmin(a)) throw new ForbiddenError('Administrators only');
  return a;
}

/**
 * An item the caller may see: published items to everyone, the others to their author and administrators only
 * (404 to anyone else, so an unpublished submission stays unknown).
 */
export async function visibleItem(catalog: CatalogRepository, kind: ItemKind, id: string, actor: Actor | undefined): Promise<Item> {
  const item = isUuid(id) ? await catalog.findById(kind, id) : null;
  if (!item || (item.status !== 'published' && !mayManage(item, actor))) throw new NotFoundError(KIND_NAME[kind]);
  return item;
}

/** A visible item the caller may change (its author or an administrator), else 401 / 403. */
export async function managedItem(catalog: CatalogRepository, kind: ItemKind, id: string, actor: Actor | undefined): Promise<{ item: Item; actor: Actor }> {
  const a = signedIn(actor);
  const item = await visibleItem(catalog, kind, id, a);
  if (!mayManage(item, a)) throw new ForbiddenError(`Only the ${kind}'s author or an administrator may do this`);
  return { item, actor: a };
}
