import type { Context, Next } from 'koa';
import type { AuditSubject, AuditSubjects } from '../../../core/audit/ports/audit-log.port';
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
  /** Body fields whose values the details keep (short text that is never a secret: a role). */
  keep?: string[];
}

/**
 * The requests of security or billing weight (EVENTS.md), and every change to an application's configuration, keys,
 * integrations and plugins, by method and path. The resource id is the path's group `id`, else its first captured
 * group, else the `id` of the answer. The application is the path's group `app`, else the `applicationId` of the
 * answer or of the request, else the one the resource belongs to (found before the request, so a deletion has it
 * too); other named groups go to the details as `<name>Id`. New areas add their lines here.
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
  { method: 'POST', path: /^\/api\/applications\/(?<app>[^/]+)\/plugins(?:\/.*)?$/, action: 'plugin.change', resourceType: 'plugin' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)\/plugins(?:\/.*)?$/, action: 'plugin.change', resourceType: 'plugin' },
  { method: 'DELETE', path: /^\/api\/applications\/(?<app>[^/]+)\/plugins(?:\/.*)?$/, action: 'plugin.remove', resourceType: 'plugin' },
  // A member's role and removal name the member (and the role given); the team is the resource.
  { method: 'PUT', path: /^\/api\/teams\/(?<id>[^/]+)\/members\/(?<member>[^/]+)$/, action: 'team.member_role', resourceType: 'team', keep: ['role'] },
  { method: 'DELETE', path: /^\/api\/teams\/(?<id>[^/]+)\/members\/(?<member>[^/]+)$/, action: 'team.member_remove', resourceType: 'team' },
  { method: 'POST', path: /^\/api\/teams\/([^/]+)\/transfer$/, action: 'team.ownership_transfer', resourceType: 'team', keep: ['userId'] },
  { method: 'POST', path: /^\/api\/teams\/([^/]+)\/invitations$/, action: 'team.invite', resourceType: 'team', keep: ['role'] },
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
  // Applications and what configures them (filterable by application: `GET /api/audit?application=`).
  { method: 'POST', path: /^\/api\/applications$/, action: 'application.create', resourceType: 'application' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)$/, action: 'application.update', resourceType: 'application' },
  { method: 'DELETE', path: /^\/api\/applications\/(?<app>[^/]+)$/, action: 'application.delete', resourceType: 'application' },
  { method: 'POST', path: /^\/api\/applications\/(?<app>[^/]+)\/transfer$/, action: 'application.transfer', resourceType: 'application' },
  { method: 'POST', path: /^\/api\/applications\/(?<app>[^/]+)\/theme$/, action: 'application.theme_select', resourceType: 'application' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)\/theme\/customize$/, action: 'application.theme_customize', resourceType: 'application' },
  { method: 'PUT', path: /^\/api\/branding\/(?<app>[^/]+)$/, action: 'branding.update', resourceType: 'branding' },
  { method: 'POST', path: /^\/api\/applications\/(?<app>[^/]+)\/tools$/, action: 'tool.create', resourceType: 'tool' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)\/tools\/(?<id>[^/]+)$/, action: 'tool.update', resourceType: 'tool' },
  { method: 'DELETE', path: /^\/api\/applications\/(?<app>[^/]+)\/tools\/(?<id>[^/]+)$/, action: 'tool.delete', resourceType: 'tool' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)\/agent$/, action: 'agent.update', resourceType: 'agent_settings' },
  { method: 'POST', path: /^\/api\/applications\/(?<app>[^/]+)\/mcp-servers$/, action: 'mcp_server.create', resourceType: 'mcp_server' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)\/mcp-servers\/(?<id>[^/]+)$/, action: 'mcp_server.update', resourceType: 'mcp_server' },
  { method: 'DELETE', path: /^\/api\/applications\/(?<app>[^/]+)\/mcp-servers\/(?<id>[^/]+)$/, action: 'mcp_server.delete', resourceType: 'mcp_server' },
  { method: 'POST', path: /^\/api\/applications\/(?<app>[^/]+)\/mcp-servers\/(?<id>[^/]+)\/refresh$/, action: 'mcp_server.refresh', resourceType: 'mcp_server' },
  { method: 'POST', path: /^\/api\/applications\/(?<app>[^/]+)\/annotations$/, action: 'annotation.create', resourceType: 'annotation' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)\/annotations\/settings$/, action: 'annotation.settings', resourceType: 'annotation_settings' },
  { method: 'PUT', path: /^\/api\/applications\/(?<app>[^/]+)\/annotations\/(?<id>[^/]+)$/, action: 'annotation.update', resourceType: 'annotation' },
  { method: 'DELETE', path: /^\/api\/applications\/(?<app>[^/]+)\/annotations\/(?<id>[^/]+)$/, action: 'annotation.delete', resourceType: 'annotation' },
  { method: 'POST', path: /^\/api\/model-configs$/, action: 'model_config.create', resourceType: 'model_config' },
  { method: 'PUT', path: /^\/api\/model-configs\/([^/]+)$/, action: 'model_config.update', resourceType: 'model_config' },
  { method: 'DELETE', path: /^\/api\/model-configs\/([^/]+)$/, action: 'model_config.delete', resourceType: 'model_config' },
  { method: 'PATCH', path: /^\/api\/model-configs\/([^/]+)\/default$/, action: 'model_config.set_default', resourceType: 'model_config' },
  { method: 'POST', path: /^\/api\/model-configs\/([^/]+)\/versions$/, action: 'model_config.version_create', resourceType: 'model_config' },
  { method: 'PUT', path: /^\/api\/model-configs\/(?<id>[^/]+)\/versions\/(?<version>[^/]+)$/, action: 'model_config.version_update', resourceType: 'model_config' },
  { method: 'DELETE', path: /^\/api\/model-configs\/(?<id>[^/]+)\/versions\/(?<version>[^/]+)$/, action: 'model_config.version_delete', resourceType: 'model_config' },
  { method: 'PUT', path: /^\/api\/model-configs\/([^/]+)\/experiment$/, action: 'model_config.experiment_update', resourceType: 'model_config' },
  { method: 'POST', path: /^\/api\/model-configs\/([^/]+)\/experiment\/promote$/, action: 'model_config.experiment_promote', resourceType: 'model_config' },
  { method: 'POST', path: /^\/api\/prompts$/, action: 'prompt.create', resourceType: 'prompt' },
  { method: 'PUT', path: /^\/api\/prompts\/([^/]+)$/, action: 'prompt.update', resourceType: 'prompt' },
  { method: 'DELETE', path: /^\/api\/prompts\/([^/]+)$/, action: 'prompt.delete', resourceType: 'prompt' },
  { method: 'PUT', path: /^\/api\/prompts\/([^/]+)\/default$/, action: 'prompt.set_default', resourceType: 'prompt' },
  { method: 'POST', path: /^\/api\/knowledge$/, action: 'knowledge.upload', resourceType: 'knowledge_document' },
  { method: 'DELETE', path: /^\/api\/knowledge\/([^/]+)$/, action: 'knowledge.delete', resourceType: 'knowledge_document' },
  { method: 'POST', path: /^\/api\/knowledge\/([^/]+)\/reindex$/, action: 'knowledge.reindex', resourceType: 'knowledge_document' },
  { method: 'POST', path: /^\/api\/custom-domains$/, action: 'custom_domain.create', resourceType: 'custom_domain' },
  { method: 'PUT', path: /^\/api\/custom-domains\/([^/]+)$/, action: 'custom_domain.update', resourceType: 'custom_domain' },
  { method: 'DELETE', path: /^\/api\/custom-domains\/([^/]+)$/, action: 'custom_domain.delete', resourceType: 'custom_domain' },
  { method: 'POST', path: /^\/api\/custom-domains\/([^/]+)\/verify$/, action: 'custom_domain.verify', resourceType: 'custom_domain' },
  { method: 'POST', path: /^\/api\/custom-domains\/([^/]+)\/activate$/, action: 'custom_domain.activate', resourceType: 'custom_domain' },
  { method: 'POST', path: /^\/api\/workflows$/, action: 'workflow.create', resourceType: 'workflow' },
  { method: 'PUT', path: /^\/api\/workflows\/([^/]+)$/, action: 'workflow.update', resourceType: 'workflow' },
  { method: 'DELETE', path: /^\/api\/workflows\/([^/]+)$/, action: 'workflow.delete', resourceType: 'workflow' },
  { method: 'POST', path: /^\/api\/workflows\/([^/]+)\/(?:pause|resume)$/, action: 'workflow.schedule', resourceType: 'workflow' },
  // A template's deployment creates an application (the answer names it) with its configuration.
  { method: 'POST', path: /^\/api\/templates\/(?<template>[^/]+)\/deploy$/, action: 'application.create_from_template', resourceType: 'application' },
  { method: 'POST', path: /^\/api\/themes$/, action: 'theme.create', resourceType: 'theme' },
];
const ADMIN_WRITE = /^\/api\/admin\/([^/]+)(?:\/([^/]+))?/;

interface Audited {
  action: string;
  resourceType: string;
  resourceId: string | null;
  applicationId: string | null;
  details: Record<string, string>;
  keep: string[];
}

const RESERVED_GROUPS = new Set(['app', 'id']);

function match(method: string, path: string): Audited | null {
  for (const route of AUDITED_ROUTES) {
    if (route.method !== method) continue;
    const m = route.path.exec(path);
    if (!m) continue;
    const groups = m.groups ?? {};
    const details = Object.fromEntries(Object.entries(groups).filter(([k, v]) => !RESERVED_GROUPS.has(k) && v !== undefined).map(([k, v]) => [`${k}Id`, v!.slice(0, 100)]));
    // With named groups, only `id` names the resource; without, the first group does.
    const resourceId = m.groups ? (groups.id ?? null) : (m[1] ?? null);
    return { action: route.action, resourceType: route.resourceType, resourceId, applicationId: groups.app ?? null, details, keep: route.keep ?? [] };
  }
  const admin = method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' ? ADMIN_WRITE.exec(path) : null;
  return admin ? { action: `admin.${method.toLowerCase()}_${admin[1]}`, resourceType: admin[1]!, resourceId: admin[2] ?? null, applicationId: null, details: {}, keep: [] } : null;
}

/** The names (never the values) of the fields a change sent, for an application's records: which settings changed. */
function fieldsOf(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const names = Object.keys(body).filter((k) => /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(k)).sort().slice(0, 30);
  return names.length ? names.join(',') : undefined;
}

/** The `applicationId` of a body, or the `id` of its `application` (a template's deployment answers it). */
const applicationIdOf = (body: unknown): string | null => {
  if (!body || typeof body !== 'object') return null;
  const b = body as { applicationId?: unknown; application?: { id?: unknown } | null };
  if (isUuid(b.applicationId)) return b.applicationId;
  return b.application && typeof b.application === 'object' && isUuid(b.application.id) ? b.application.id : null;
};

const idOf = (body: unknown): string | null => {
  if (!body || typeof body !== 'object') return null;
  const b = body as { id?: unknown; _id?: unknown; user?: { id?: unknown } };
  if (typeof b.id === 'string') return b.id;
  if (typeof b._id === 'string') return b._id; // a model config's
  return typeof b.user?.id === 'string' ? b.user.id : null;
};

/**
 * Appends an audit record for every audited request once it is answered, succeeded or failed
 * (a failed login included), with the actor, address and user agent. Never the bodies: only the
 * e-mail a login or reset named, so failures against an account can be found, and for a change to an
 * application the names of the fields it sent (`fields`: which settings changed, never their values).
 * A record about an application carries it and its team (`subjects`), so the team's Owner and Admins see it.
 */
export function auditMiddleware(record: RecordAuditUseCase, logger: Logger, subjects?: AuditSubjects) {
  const locate = async (resourceType: string, id: string | null): Promise<AuditSubject | null> => {
    if (!subjects || !isUuid(id)) return null;
    try {
      return await subjects.locate(resourceType, id);
    } catch (err) {
      logger.error({ err: { message: (err as Error).message }, resourceType }, 'could not find the application of an audited resource');
      return null;
    }
  };
  return async (ctx: Context, next: Next): Promise<void> => {
    const audited = match(ctx.method, ctx.path);
    if (!audited) return next();
    // Where the resource belongs, read before the change (a deleted resource is gone after it).
    let subject = audited.applicationId
      ? await locate('application', audited.applicationId)
      : audited.resourceId
        ? await locate(audited.resourceType, audited.resourceId)
        : null;
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
    const answeredId = audited.resourceId ?? (outcome === 'success' ? idOf(answered) : null);
    // The application: the path's, else the answer's (a creation), else the request's, else the resource's.
    const created = outcome === 'success' && audited.resourceType === 'application' && !audited.applicationId ? answeredId : null;
    const applicationId =
      (isUuid(audited.applicationId) ? audited.applicationId : null) ??
      created ??
      (outcome === 'success' ? applicationIdOf(answered) : null) ??
      applicationIdOf(body) ??
      subject?.applicationId ??
      null;
    const resourceId = answeredId ?? (audited.resourceType === 'application' ? applicationId : null);
    // After a change that succeeded, the application as it is now (a transfer into a team: that team's records).
    if (applicationId && (subject?.applicationId !== applicationId || (outcome === 'success' && ctx.method !== 'DELETE'))) subject = await locate('application', applicationId);
    // A team's records carry its id, so its Owner and Admins see them (the path's id, else the answer's), and so
    // do the records of its applications; not a 404, the answer to someone with no role there, whose attempt
    // (and name) stays their own.
    const teamId =
      audited.resourceType === 'team'
        ? ([audited.resourceId, outcome === 'success' ? idOf(answered) : null].find((id) => isUuid(id)) ?? null)
        : status === 404
          ? null
          : (subject?.teamId ?? null);
    const fields = applicationId && ctx.method !== 'DELETE' ? fieldsOf(body) : undefined;
    const kept = Object.fromEntries(
      audited.keep.flatMap((k) => {
        const v = body && typeof body === 'object' && Object.hasOwn(body, k) ? (body as Record<string, unknown>)[k] : undefined;
        return typeof v === 'string' && v.length <= 64 ? [[k, v]] : [];
      }),
    );
    try {
      await record.execute({
        actorId,
        actorRole: actor?.role ?? (outcome === 'success' ? (answered?.user?.role ?? null) : null),
        action: audited.action,
        resourceType: audited.resourceType,
        resourceId,
        ...(teamId ? { teamId } : {}),
        ...(applicationId ? { applicationId } : {}),
        ip: ctx.ip || null,
        userAgent: ctx.get('User-Agent') || null,
        outcome,
        details: { status, method: ctx.method, ...audited.details, ...kept, ...(fields ? { fields } : {}), ...(email ? { email } : {}) },
      });
    } catch (err) {
      // The request is answered either way; a lost record is logged loudly.
      logger.error({ err: { message: (err as Error).message }, action: audited.action }, 'could not write an audit record');
    }
    if (failed) throw failed;
  };
}
