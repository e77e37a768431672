import yauzl from 'yauzl';
import type { TestStack } from '../../../support/test-stack';

/** Polls an export until it is no longer pending or running. */
export async function exportWhenDone(stack: TestStack, id: string, token: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await stack.client.get(`/api/data-export/${id}`, { token });
    if (res.status !== 200) throw new Error(`export status: ${res.status} ${res.text}`);
    if (res.body.status !== 'pending' && res.body.status !== 'running') return res.body as { status: string; downloadUrl: string | null; byteSize: number; format: string };
    if (Date.now() > until) throw new Error(`export ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Requests an export, waits for it and downloads its file. */
export async function exportAndDownload(stack: TestStack, token: string, body: { resources: string; format: string }) {
  const requested = await stack.client.post('/api/data-export', body, { token });
  if (requested.status !== 202) throw new Error(`export request: ${requested.status} ${requested.text}`);
  const done = await exportWhenDone(stack, requested.body.id, token);
  if (done.status !== 'ready' || !done.downloadUrl) throw new Error(`export ended ${done.status}`);
  const res = await download(stack, done.downloadUrl, token);
  if (res.status !== 200) throw new Error(`download: ${res.status}`);
  return { id: requested.body.id as string, bytes: res.bytes, contentType: res.contentType, disposition: res.disposition, byteSize: done.byteSize };
}

export async function download(stack: TestStack, path: string, token?: string) {
  const res = await fetch(stack.listening.url + path, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return {
    status: res.status,
    bytes: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type') ?? '',
    disposition: res.headers.get('content-disposition') ?? '',
    cacheControl: res.headers.get('cache-control') ?? '',
  };
}

/** The entries of a ZIP, by name. */
export function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
