import { createHash, randomBytes } from 'node:crypto';
import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ForbiddenError, NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { uuidField, validate } from '../../shared/validation';
import { toLicenseView, type LicenseView } from '../domain/views';
import type { CatalogRepository, LicenseRepository } from '../ports/marketplace-repository.port';
import { single } from './browse.use-cases';
import { isAdmin, managedItem } from './marketplace-access';

const issueSchema = yup.object({
  userId: uuidField('userId').required('userId is required'),
  expiresAt: yup
    .string()
    .strict()
    .typeError('expiresAt must be an ISO 8601 timestamp')
    .test('iso', 'expiresAt must be an ISO 8601 timestamp', (v) => v === undefined || (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v)))),
});

export const hashLicenseKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** Licenses of a paid plugin: issued by its author or an administrator (purchases come with billing). */
export class LicensesUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; licenses: LicenseRepository; clock: Clock }) {}

  async issue(pluginId: string, body: unknown, actor: Actor | undefined): Promise<LicenseView> {
    const { item, actor: issuer } = await managedItem(this.deps.catalog, 'plugin', pluginId, actor);
    const input = await validate(issueSchema, body);
    if (!item.isPaid) throw ValidationError.field('pluginId', 'this plugin is free: it needs no license');
    const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
    if (expiresAt && expiresAt <= this.deps.clock.now()) throw ValidationError.field('expiresAt', 'expiresAt must be in the future');
    const key = `mpl_${randomBytes(24).toString('base64url')}`;
    const license = await this.deps.licenses.issue({ itemId: item.id, userId: input.userId!, keyHash: hashLicenseKey(key), keyHint: key.slice(-4), expiresAt, issuedBy: issuer.userId });
    return toLicenseView(license, key);
  }

  async list(pluginId: string, actor: Actor | undefined): Promise<LicenseView[]> {
    const { item } = await managedItem(this.deps.catalog, 'plugin', pluginId, actor);
    return (await this.deps.licenses.list(item.id)).map((l) => toLicenseView(l));
  }

  async revoke(pluginId: string, userId: string, actor: Actor | undefined): Promise<LicenseView> {
    const { item } = await managedItem(this.deps.catalog, 'plugin', pluginId, actor);
    const revoked = isUuid(userId) ? await this.deps.licenses.revoke(item.id, userId) : null;
    if (!revoked) throw new NotFoundError('License');
    return toLicenseView(revoked);
  }
}

export type LicenseValidity = { valid: true; reason?: 'free'; expiresAt?: string | null } | { valid: false; reason: 'plugin_not_found' | 'no_license' | 'license_revoked' | 'license_expired' };

/**
 * Whether a user may run a plugin: free published plugins always, paid ones with an active, unexpired license. The
 * core API asks on activation and from its re-validation job (with the service token and no acting user); a signed-in
 * caller may ask about themself only, unless an administrator.
 */
export class ValidateLicenseUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; licenses: LicenseRepository; clock: Clock }) {}

  async execute(query: Record<string, unknown>, actor: Actor | undefined): Promise<LicenseValidity> {
    const pluginId = single(query, 'pluginId');
    const userId = single(query, 'userId');
    if (!pluginId || !isUuid(pluginId)) throw ValidationError.field('pluginId', 'pluginId must be a UUID');
    if (!userId || !isUuid(userId)) throw ValidationError.field('userId', 'userId must be a UUID');
    if (actor && !isAdmin(actor) && actor.userId !== userId) throw new ForbiddenError('You may check your own licenses only');
    const item = await this.deps.catalog.findById('plugin', pluginId);
    if (!item || item.status !== 'published') return { valid: false, reason: 'plugin_not_found' };
    if (!item.isPaid) return { valid: true, reason: 'free' };
    const license = await this.deps.licenses.find(item.id, userId);
    if (!license) return { valid: false, reason: 'no_license' };
    if (license.status === 'revoked') return { valid: false, reason: 'license_revoked' };
    if (license.expiresAt && license.expiresAt <= this.deps.clock.now()) return { valid: false, reason: 'license_expired' };
    return { valid: true, expiresAt: license.expiresAt?.toISOString() ?? null };
  }
}
