import type { TestClient } from '../../../support/http-client';
import { sendForm } from '../uploads/send-form';

/** 20 items as CSV: 14 short JSON inputs, 6 long ones that a 6-token answer cuts short. */
export const SYSTEM = 'Be exact.';
export const answerTo = (input: string) => `[system: ${SYSTEM}] Echo: ${input}`;
export const inputOf = (n: number) => (n <= 14 ? `{"n": ${n}}` : `{"n": ${n}, "note": "longer"}`);
export const csvOf = (count = 20, first = 1) =>
  ['input,expected,tags', ...Array.from({ length: count }, (_, i) => i + first).map((n) => `"${inputOf(n).replace(/"/g, '""')}","${answerTo(inputOf(n)).replace(/"/g, '""')}",${n <= 14 ? 'short' : 'long'}`)].join('\n') + '\n';

export async function importCsv(client: TestClient, token: string, appId: string, datasetId: string, csv: string | Uint8Array, name = 'items.csv') {
  return sendForm(client.baseUrl, `/api/applications/${appId}/datasets/${datasetId}/import`, { token, file: { name, bytes: csv, type: 'text/csv' } });
}

/** A model config with two versions: "full" answers whole, "short" in at most 6 tokens. */
export async function twoVersions(client: TestClient, token: string, appId: string) {
  const config = await client.post('/api/model-configs', { applicationId: appId, displayName: 'Main', provider: 'provider_a', modelId: 'gpt-4o', settings: { systemPrompt: SYSTEM }, isDefault: true }, { token });
  if (config.status !== 201) throw new Error(`config: ${config.status} ${config.text}`);
  const full = await client.post(`/api/model-configs/${config.body._id}/versions`, { label: 'full', settings: { systemPrompt: SYSTEM } }, { token });
  const short = await client.post(`/api/model-configs/${config.body._id}/versions`, { label: 'short', settings: { systemPrompt: SYSTEM, maxTokens: 6 } }, { token });
  if (full.status !== 201 || short.status !== 201) throw new Error(`versions: ${full.text} ${short.text}`);
  return { configId: config.body._id as string, full: (full.body._id ?? full.body.id) as string, short: (short.body._id ?? short.body.id) as string };
}

/** Polls a run until it leaves `running`. */
export async function finished(client: TestClient, path: string, options: { token?: string; headers?: Record<string, string> }, timeoutMs = 30_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(path, options);
    if (res.status !== 200) throw new Error(`GET run answered ${res.status}: ${res.text}`);
    if (res.body.status !== 'running' || Date.now() > until) return res.body;
    await new Promise((r) => setTimeout(r, 50));
  }
}
