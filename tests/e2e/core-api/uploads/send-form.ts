import type { TestResponse } from '../../../support/http-client';

export interface FormFile {
  name: string;
  bytes: Uint8Array | string;
  type?: string;
}

/** POSTs a multipart/form-data request the way a browser would (fetch with FormData). */
export async function sendForm(baseUrl: string, path: string, options: { token?: string; fields?: Record<string, string>; file?: FormFile; fileField?: string; method?: 'POST' | 'PUT' }): Promise<TestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  if (options.file) {
    const bytes = typeof options.file.bytes === 'string' ? new TextEncoder().encode(options.file.bytes) : options.file.bytes;
    // A copy in a plain ArrayBuffer: what Blob's types accept.
    form.append(options.fileField ?? 'file', new Blob([new Uint8Array(bytes)], { type: options.file.type ?? 'application/octet-stream' }), options.file.name);
  }
  const res = await fetch(baseUrl + path, { method: options.method ?? 'POST', body: form, headers: options.token ? { Authorization: `Bearer ${options.token}` } : {} });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text };
}

/** Minimal valid files of each accepted kind. */
export const SAMPLE_FILES = {
  png: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpeg: Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  gif: new TextEncoder().encode('GIF89a\x01\x00\x01\x00'),
  webp: new TextEncoder().encode('RIFF\x1a\x00\x00\x00WEBPVP8 '),
  zip: Uint8Array.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]),
};
