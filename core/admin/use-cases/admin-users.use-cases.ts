import * as yup from 'yup';
import type { RefreshTokenRepository } from '../../auth/ports/refresh-token-repository.port';
import { PLAN_TIERS, type PlanTier } from '../../billing/domain/plans';
import { PLATFORM_ROLES, type Actor, type PlatformRole } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { offsetOf, parsePageRequest, type Page } from '../../shared/pagination';
import { bool, str, validate } from '../../shared/validation';
import type { UserRepository } from '../../users/ports/user-repository.port';
import { toAdminUserView, type AdminUserView } from '../domain/admin-user';
import type { UserDirectory } from '../ports/user-directory.port';

export interface AdminUsersDeps {
  directory: UserDirectory;
  users: UserRepository;
  refreshTokens: RefreshTokenRepository;
  clock: Clock;
  adminEmails: readonly string[];
}

const SEARCH_MAX = 200;

function requireAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new ForbiddenError('This requires the admin role');
}

const oneOf = <T extends string>(name: string, raw: unknown, allowed: readonly T[]): T | undefined => {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !(allowed as readonly string[]).includes(raw)) {
    throw ValidationError.field(name, `${name} must be one of ${allowed.join(', ')}`);
  }
  return raw as T;
};

/** Admin: every account, searched by e-mail or name, filtered by role, plan and disabled, in pages. */
export class ListUsersUseCase {
  constructor(private readonly deps: AdminUsersDeps) {}

  async execute(query: Record<string, unknown>, actor: Actor): Promise<Page<AdminUserView>> {
    requireAdmin(actor);
    const page = parsePageRequest(query);
    const search = query.search;
    if (search !== undefined && (typeof search !== 'string' || search.length > SEARCH_MAX)) {
      throw ValidationError.field('search', `search must be text of at most ${SEARCH_MAX} characters`);
    }
    const role = oneOf<PlatformRole>('role', query.role, PLATFORM_ROLES);
    const plan = oneOf<PlanTier>('plan', query.plan, PLAN_TIERS);
    const disabled = oneOf('disabled', query.disabled, ['true', 'false'] as const);
    const { users, total } = await this.deps.directory.list(
      {
        search: typeof search === 'string' && search.trim() !== '' ? search.trim() : undefined,
        role,
        plan,
        disabled: disabled === undefined ? undefined : disabled === 'true',
        adminEmails: this.deps.adminEmails,
      },
      offsetOf(page),
      page.limit,
    );
    return { data: users.map((u) => toAdminUserView(u, this.deps.adminEmails)), total, page: page.page, limit: page.limit };
  }
}

const roleSchema = yup.object({
  role: str().required('role is required').oneOf([...PLATFORM_ROLES], `role must be one of ${PLATFORM_ROLES.join(', ')}`),
});

/**
 * Admin: sets an account's stored role. It applies to the account's next request (every request
 * reads the user afresh through the shared cache). An admin cannot take the role from themselves,
 * so the platform never loses its last admin by accident; ADMIN_EMAILS stay admins whatever is stored.
 */
export class ChangeUserRoleUseCase {
  constructor(private readonly deps: AdminUsersDeps) {}

  async execute(userId: string, input: unknown, actor: Actor): Promise<AdminUserView> {
    requireAdmin(actor);
    const body = await validate(roleSchema, input);
    if (!isUuid(userId)) throw new NotFoundError('User');
    if (userId === actor.userId && body.role !== 'admin') throw new ConflictError('You cannot take the admin role from yourself');
    const updated = await this.deps.users.update(userId, { role: body.role as PlatformRole });
    if (!updated) throw new NotFoundError('User');
    return this.view(userId);
  }

  private async view(userId: string): Promise<AdminUserView> {
    const found = await this.deps.directory.find(userId);
    if (!found) throw new NotFoundError('User');
    return toAdminUserView(found, this.deps.adminEmails);
  }
}

const disabledSchema = yup.object({
  disabled: bool().required('disabled is required').typeError('disabled must be true or false'),
});

/**
 * Admin: disables or enables an account. Disabling stops it at once everywhere: the user record is
 * invalidated in every instance's cache (access tokens and the owner check of API keys read it), and
 * its refresh tokens are revoked, so re-enabling needs a fresh sign-in. An admin cannot disable themselves.
 */
export class SetUserDisabledUseCase {
  constructor(private readonly deps: AdminUsersDeps) {}

  async execute(userId: string, input: unknown, actor: Actor): Promise<AdminUserView> {
    requireAdmin(actor);
    const body = await validate(disabledSchema, input);
    if (!isUuid(userId)) throw new NotFoundError('User');
    if (userId === actor.userId && body.disabled) throw new ConflictError('You cannot disable your own account');
    const updated = await this.deps.users.update(userId, { disabled: body.disabled });
    if (!updated) throw new NotFoundError('User');
    if (body.disabled) await this.deps.refreshTokens.revokeAllForUser(userId, this.deps.clock.now());
    const found = await this.deps.directory.find(userId);
    if (!found) throw new NotFoundError('User');
    return toAdminUserView(found, this.deps.adminEmails);
  }
}
