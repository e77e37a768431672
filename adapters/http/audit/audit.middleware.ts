import type { Context, Next } from 'koa';
import type { RecordAuditUseCase } from '../../../core/audit/use-cases/record-audit.use-case';
import type { Actor } from '../../../core/shared/actor';
import { isUuid } from '../../../core/shared/ids';
import type { Logger } from '../../logging/logger';
import { toResponse } from '../shared/error.middleware';

interface AuditedRoute {
  method: string;
  path: RegExp;
  action: string;
  resourceType: string;
}

/**
 * The requests of security or billing weight (EVENTS.md), by method and path. The resource id is the
 * path's first captured group, else the `id` of the answer. New areas add their lines here.
 */
export const AUDITED_ROUTES: AuditedRoute[] = [
  { method: 'POST', path: /^\/api\/auth\/login$/, action: 'auth.login', resourceType: 'user' },
  { method: 'POST', path: /^\/api\/auth\/register$/, action: 'auth.register', resourceType: 'user' },
  { method: 'POST', path: /^\/api\/auth\/change-password$/, action: 'auth.password_change', resourceType: 'user' },
  { method: 'POST', path: /^\/api\/auth\/password-reset\/request$/, action: 'auth.password_reset_request', resourceType: 'user' },
  { method: 'POST', path: /^\/api\/auth\/password-reset\/confirm$/, action: 'auth.password_reset', resourceType: 'user' },
  { method: 'DELETE', path: /^\/api\/users\/me$/, action: 'user.delete', resourceType: 'user' },
  { method: 'POST', path: /^\/api\/api-keys$/, action: 'api_key.create', resourceType: 'api_key' },
  { method: 'POST', path: /^\/api\/api-keys\/([^/]+)\/revoke$/, action: 'api_key.revoke', resourceType: 'api_key' },
  { method: 'DELETE', path: /^\/api\/api-keys\/([^/]+)$/, action: 'api_key.delete', resourceType: 'api_key' },
  { method: 'PUT', path: /^\/api\/provider-keys\/([^/]+)$/, action: 'provider_key.save', resourceType: 'provider_key' },
  { method: 'DELETE', path: /^\/api\/provider-keys\/([^/]+)$/, action: 'provider_key.delete', resourceType: 'provider_key' },
  { method: 'POST', path: /^\/api\/provider-keys\/([^/]+)\/validate$/, action: 'provider_key.validate', resourceType: 'provider_key' },
  { method: 'POST', path: /^\/api\/webhooks$/, action: 'webhook.create', resourceType: 'webhook' },
  { method: 'PUT', path: /^\/api\/webhooks\/([^/]+)$/, action: 'webhook.update', resourceType: 'webhook' },
  { method: 'DELETE', path: /^\/api\/webhooks\/([^/]+)$/, action: 'webhook.delete', resourceType: 'webhook' },
  { method: 'POST', path: /^\/api\/webhooks\/([^/]+)\/rotate-secret$/, action: 'webhook.rotate_secret', resourceType: 'webhook' },
  { method: 'POST', path: /^\/api\/webhooks\/([^/]+)\/test$/, action: 'webhook.test', resourceType: 'webhook' },
  { method: 'POST', path: /^\/api\/webhooks\/([^/]+)\/deliveries\/[^/]+\/retry$/, action: 'webhook.retry_delivery', resourceType: 'webhook' },
  { method: 'POST', path: /^\/api\/plugins$/, action: 'plugin.create', resourceType: 'plugin' },
  { method: 'POST', path: /^\/api\/plugins\/([^/]+)\/publish$/, action: 'plugin.publish', resourceType: 'plugin' },
  { method: 'POST', path: /^\/api\/applications\/([^/]+)\/plugins(?:\/.*)?$/, action: 'plugin.change', resourceType: 'plugin' },
  { method: 'PUT', path: /^\/api\/applications\/([^/]+)\/plugins(?:\/.*)?$/, action: 'plugin.change', resourceType: 'plugin' },
  { method: 'DELETE', path: /^\/api\/applications\/([^/]+)\/plugins(?:\/.*)?$/, action: 'plugin.remove', resourceType: 'plugin' },
  { method: 'POST', path: /^\/api\/teams(?:\/([^/]+).*)?$/, action: 'team.change', resourceType: 'team' },
  { method: 'PUT', path: /^\/api\/teams\/([^/]+).*$/, action: 'team.change', resourceType: 'team' },
  { method: 'DELETE', path: /^\/api\/teams\/([^/]+).*$/, action: 'team.remove', resourceType: 'team' },
  // External sign-in: the callbacks (refusals included) and the code exchange, which is the login itself.
  { method: 'GET', path: /^\/api\/auth\/(?:github|google)\/callback$/, action: 'auth.oauth_callback', resourceType: 'user' },
  { method: 'POST', path: /^\/api\/auth\/oauth\/exchange$/, action: 'auth.login', resourceType: 'user' },
  { method: 'GET', path: /^\/api\/sso\/oidc\/callback$/, action: 'auth.sso_callback', resourceType: 'user' },
  { method: 'POST', path: /^\/(?:api\/)?sso\/saml\/callback$/, action: 'auth.sso_callback', resourceType: 'user' },
  { method: 'DELETE', path: /^\/api\/users\/me\/identities\/([^/]+)$/, action: 'user.identity_unlink', resourceType: 'identity' },
  { method: 'DELETE', path: /^\/api\/sso\/([^/]+)\/config$/, action: 'sso.remove', resourceType: 'sso' },
  { method: 'PUT', path: /^\/api\/sso(?:\/.*)?$/, action: 'sso.configure', resourceType: 'sso' },
  { method: 'POST', path: /^\/api\/sso(?:\/.*)?$/, action: 'sso.configure', resourceType: 'sso' },
  { method: 'POST', path: /^\/api\/(?:data-)?export(?:\/.*)?$/, action: 'data.export', resourceType: 'user' },
  { method: 'PUT', path: /^\/api\/admin\/users\/([^/]+)\/plan$/, action: 'admin.plan_change', resourceType: 'subscription' },
  { method: 'POST', path: /^\/api\/billing\/subscribe$/, action: 'billing.checkout', resourceType: 'subscription' },
  { method: 'POST', path: /^\/api\/billing\/licenses\/checkout$/, action: 'billing.license_checkout', resourceType: 'license' },
  { method: 'GET', path: /^\/api\/admin\/users$/, action: 'admin.users_list', resourceType: 'user' },
  { method: 'PUT', path: /^\/api\/admin\/users\/([^/]+)\/role$/, action: 'admin.role_change', resourceType: 'user' },
  { method: 'PUT', path: /^\/api\/admin\/users\/([^/]+)\/disabled$/, action: 'admin.user_disabled', resourceType: 'user' },
  { method: 'POST', path: /^\/api\/data-import$/, action: 'data.import', resourceType: 'application' },
  { method: 'GET', path: /^\/api\/data-export\/([^/]+)\/download$/, action: 'data.export_download', resourceType: 'data_export' },
];
const ADMIN_WRITE = /^\/api\/admin\/([^/]+)(?:\/([^/]+))?/;

function match(method: string, path: string): { action: string; resourceType: string; resourceId: string | null } | null {
  for (const route of AUDITED_ROUTES) {
    if (route.method !== method) continue;
    const m = route.path.exec(path);
    if (m) return { action: route.action, resourceType: route.resourceType, resourceId: m[1] ?? null };
  }
  const admin = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' ? ADMIN_WRITE.exec(path) : null;
  return admin ? { action: `admin.${method.toLowerCase()}_${admin[1]}`, resourceType: admin[1]!, resourceId: admin[2] ?? null } : null;
}

const idOf = (body: unknown): string | null => {
  if (!body || typeof body !== 'object') return null;
  const b = body as { id?: unknown; user?: { id?: unknown } };
  if (typeof b.id === 'string') return b.id;
  return typeof b.user?.id === 'string' ? b.user.id : null;
};

/**
 * Appends an audit record for every audited request once it is answered, succeeded or failed
 * (a failed login included), with the actor, address and user agent. Never the bodies: only the
 * e-mail a login or reset named, so failures against an account can be found.
 */
export function auditMiddleware(record: RecordAuditUseCase, logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const audited = match(ctx.method, ctx.path);
    if (!audited) return next();
    let failed: unknown;
    try {
      await next();
    } catch (error) {
      failed = error;
    }
    const status = failed ? toResponse(failed).status : ctx.status;
    const actor = ctx.state.actor as Actor | undefined;
    const answered = failed ? null : (ctx.body as { user?: { id?: string; role?: string } } | undefined);
    const body = ctx.request.body as { email?: unknown } | undefined;
    const email = typeof body?.email === 'string' && audited.resourceType === 'user' ? body.email.slice(0, 254).toLowerCase() : undefined;
    const outcome = !failed && status < 400 ? 'success' : 'failure';
    const actorId = actor?.userId ?? (outcome === 'success' && typeof answered?.user?.id === 'string' ? answered.user.id : null);
    // A team's records carry its id, so its Owner and Admins see them (the path's id, else the answer's).
    const teamId = audited.resourceType === 'team' ? ([audited.resourceId, outcome === 'success' ? idOf(answered) : null].find((id) => isUuid(id)) ?? null) : null;
    try {
      await record.execute({
        actorId,
        actorRole: actor?.role ?? (outcome === 'success' ? (answered?.user?.role ?? null) : null),
        action: audited.action,
        resourceType: audited.resourceType,
        resourceId: audited.resourceId ?? (outcome === 'success' ? idOf(answered) : null),
        ...(teamId ? { teamId } : {}),
        ip: ctx.ip || null,
        userAgent: ctx.get('User-Agent') || null,
        outcome,
        details: { status, method: ctx.method, ...(email ? { email } : {}) },
      });
    } catch (err) {
      // The request is answered either way; a lost record is logged loudly.
      logger.error({ err: { message: (err as Error).message }, action: audited.action }, 'could not write an audit record');
    }
    if (failed) throw failed;
  };
}

