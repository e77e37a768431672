import { registerUser, userWithApplication, type TestStack } from '../../support/test-stack';
import type { TestClient } from '../../support/http-client';

/** The stack environment that makes ADMIN_EMAIL an administrator, who can put owners on a plan. */
export const ADMIN_EMAIL = 'public-api-admin@example.com';
export const ADMIN_ENV = { ADMIN_EMAILS: ADMIN_EMAIL };

const adminTokens = new WeakMap<TestClient, Promise<string>>();

/** Puts a user on a plan through the admin endpoint (a paid plan runs chats on the platform keys). */
export async function putOnPlan(client: TestClient, userId: string, plan: 'free' | 'starter' | 'pro' | 'enterprise'): Promise<void> {
  let admin = adminTokens.get(client);
  if (!admin) {
    admin = registerUser(client, { email: ADMIN_EMAIL }).then((a) => a.access_token);
    adminTokens.set(client, admin);
  }
  const res = await client.put(`/api/admin/users/${userId}/plan`, { plan }, { token: await admin });
  if (res.status !== 200) throw new Error(`plan change failed: ${res.status} ${res.text}`);
}

export interface KeyOptions {
  /** `app` (default): scoped to the owner's application; `all`: every application of the owner. */
  scope?: 'app' | 'all';
  rateLimit?: number;
}

/** An owner on a plan with one application (allowing `allowedOrigins`) and a fresh API key. */
export async function anOwnerWithKey(
  stack: TestStack,
  options: KeyOptions & { plan?: 'free' | 'starter' | 'pro' | 'enterprise'; allowedOrigins?: string[]; appName?: string } = {},
) {
  const owner = await userWithApplication(stack.client, { name: options.appName ?? 'Support Bot', allowedOrigins: options.allowedOrigins ?? [] });
  if (options.plan !== 'free') await putOnPlan(stack.client, owner.user.id, options.plan ?? 'pro');
  const key = await createKey(stack.client, owner.token, { applicationId: options.scope === 'all' ? null : owner.app.id, rateLimit: options.rateLimit });
  return { ...owner, key };
}

export async function createKey(client: TestClient, token: string, body: { applicationId?: string | null; rateLimit?: number; name?: string }) {
  const res = await client.post('/api/api-keys', body, { token });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return res.body as { id: string; key: string; applicationId: string | null; rateLimit: number };
}

/** Headers of a public-API request with this key (and, for browser-like calls, an Origin). */
export const withKey = (key: string, extra: Record<string, string> = {}) => ({ headers: { 'X-API-Key': key, ...extra } });
