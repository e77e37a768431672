import type { TestClient } from '../../support/http-client';
import { userWithApplication, type TestStack } from '../../support/test-stack';

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
  if (options.plan !== 'free') await stack.setPlan(owner.user.id, options.plan ?? 'pro');
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
