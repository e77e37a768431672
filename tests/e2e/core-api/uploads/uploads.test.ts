import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { registerUser, startCoreApi, type TestStack } from '../../../support/test-stack';
import { SAMPLE_FILES, sendForm } from './send-form';

describe('core API: uploads', () => {
  let stack: TestStack;
  let token: string;
  beforeAll(async () => {
    stack = await startCoreApi();
    token = (await registerUser(stack.client)).access_token;
  });
  afterAll(() => stack.close());

  const upload = (name: string, bytes: Uint8Array | string, as = token) => sendForm(stack.client.baseUrl, '/api/uploads', { token: as, file: { name, bytes } });
  /** Stored file names, in their owners' folders (`files/<owner>/<name>`). */
  const storedFiles = () =>
    readdirSync(join(stack.config.dataDir, 'uploads', 'files'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);

  it('stores a file, describes it, serves it back as an attachment and deletes it', async () => {
    const created = await upload('logo.png', SAMPLE_FILES.png);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ fileName: 'logo.png', mimeType: 'image/png', kind: 'image', size: SAMPLE_FILES.png.length, url: `/api/uploads/${created.body.id}/content` });

    expect((await stack.client.get(`/api/uploads/${created.body.id}`, { token })).body).toEqual(created.body);
    const list = await stack.client.get('/api/uploads', { token });
    expect(list.body.map((u: { id: string }) => u.id)).toContain(created.body.id);
    expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(1);

    const content = await fetch(`${stack.client.baseUrl}/api/uploads/${created.body.id}/content`, { headers: { Authorization: `Bearer ${token}` } });
    expect(content.status).toBe(200);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(SAMPLE_FILES.png);
    expect(content.headers.get('content-type')).toBe('image/png');
    expect(content.headers.get('content-disposition')).toBe(`attachment; filename="logo.png"; filename*=UTF-8''logo.png`);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');

    expect((await stack.client.delete(`/api/uploads/${created.body.id}`, { token })).status).toBe(204);
    expect((await stack.client.get(`/api/uploads/${created.body.id}`, { token })).status).toBe(404);
    expect((await stack.client.get(`/api/uploads/${created.body.id}/content`, { token })).status).toBe(404);
  });

  it.each([
    ['photo.png', 'image', 'image/png', SAMPLE_FILES.png],
    ['photo.jpeg', 'image', 'image/jpeg', SAMPLE_FILES.jpeg],
    ['anim.gif', 'image', 'image/gif', SAMPLE_FILES.gif],
    ['pic.webp', 'image', 'image/webp', SAMPLE_FILES.webp],
    ['data.json', 'json', 'application/json', '{"ok": true, "items": [1, 2]}'],
    ['bundle.zip', 'zip', 'application/zip', SAMPLE_FILES.zip],
    ['notes.txt', 'text', 'text/plain', 'plain notes\nsecond line'],
    ['table.csv', 'text', 'text/csv', 'a,b\n1,2\n'],
    ['README.md', 'markdown', 'text/markdown', '# Title\n\nSome *markdown* <p align="center">ok</p>'],
  ])('accepts %s as %s (%s)', async (name, kind, mimeType, bytes) => {
    const res = await upload(name, bytes);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind, mimeType });
  });

  it.each([
    ['a PNG named .txt', 'image.txt', SAMPLE_FILES.png],
    ['text named .png', 'image.png', 'just words'],
    ['invalid JSON named .json', 'data.json', '{"unterminated": '],
    ['HTML named .md', 'page.md', '<!doctype html><html><script>alert(1)</script></html>'],
    ['an SVG', 'drawing.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['an SVG named .txt', 'drawing.txt', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'],
    ['a PDF', 'paper.pdf', '%PDF-1.7\n%\xe2\xe3\xcf\xd3'],
    ['an executable', 'tool.exe', Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00])],
    ['an empty file', 'empty.txt', ''],
    ['text without an extension', 'notes', 'hello'],
  ])('refuses %s with 415', async (_what, name, bytes) => {
    const before = storedFiles().length;
    const res = await upload(name, bytes);
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type', message: expect.any(String) });
    expect(storedFiles()).toHaveLength(before);
  });

  it('takes a file of exactly 10 MB', async () => {
    const res = await upload('big.txt', 'a'.repeat(10 * 1024 * 1024));
    expect(res.status).toBe(201);
    expect(res.body.size).toBe(10 * 1024 * 1024);
  });

  it('answers 413 for a file over 10 MB, whether its length is declared or only streamed', async () => {
    const justOver = await upload('huge.txt', 'a'.repeat(10 * 1024 * 1024 + 1));
    expect(justOver.status).toBe(413);
    expect(justOver.body).toMatchObject({ statusCode: 413, message: 'The file is larger than the 10 MB upload limit' });
    // Content-Length alone shows this one is too large: it is refused before the body is read.
    expect((await upload('larger.txt', 'a'.repeat(11 * 1024 * 1024))).status).toBe(413);

    // A chunked body carries no Content-Length: the byte count while streaming is what stops it.
    const boundary = 'x-boundary-413';
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="stream.txt"\r\nContent-Type: text/plain\r\n\r\n`);
    const megabyte = new Uint8Array(1024 * 1024).fill(97);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent < 12) controller.enqueue(megabyte);
        else {
          controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
          controller.close();
        }
        sent++;
      },
    });
    const streamed = await fetch(`${stack.client.baseUrl}/api/uploads`, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    } as RequestInit);
    expect(streamed.status).toBe(413);
    // The server is none the worse for it.
    expect((await upload('after.txt', 'still here')).status).toBe(201);
  });

  it('keeps the file under a name of its own, whatever the client called it', async () => {
    const res = await upload('../../etc/passwd.txt', 'root:x:0:0');
    expect(res.status).toBe(201);
    expect(res.body.fileName).toBe('passwd.txt');
    expect(storedFiles().every((f) => /^[0-9a-f-]{36}\.[a-z]+$/.test(f))).toBe(true);
    expect(existsSync(join(stack.config.dataDir, 'etc'))).toBe(false);
  });

  it('serves an awkward name safely in Content-Disposition', async () => {
    const res = await upload('résumé "final"; x.txt', 'cv');
    const content = await fetch(`${stack.client.baseUrl}/api/uploads/${res.body.id}/content`, { headers: { Authorization: `Bearer ${token}` } });
    expect(content.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ _final__ x.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22%3B%20x.txt`);
    expect(content.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it("answers 404 for another user's upload on every route", async () => {
    const mine = await upload('private.txt', 'secret notes');
    const other = (await registerUser(stack.client)).access_token;
    expect((await stack.client.get(`/api/uploads/${mine.body.id}`, { token: other })).status).toBe(404);
    expect((await stack.client.get(`/api/uploads/${mine.body.id}/content`, { token: other })).status).toBe(404);
    expect((await stack.client.delete(`/api/uploads/${mine.body.id}`, { token: other })).status).toBe(404);
    expect((await stack.client.get('/api/uploads', { token: other })).body).toEqual([]);
    expect((await stack.client.get(`/api/uploads/${mine.body.id}`, { token })).status).toBe(200);
  });

  it('answers 400 without a file, 415 for a JSON body and 401 without a token', async () => {
    expect((await sendForm(stack.client.baseUrl, '/api/uploads', { token, fields: { note: 'no file' } })).status).toBe(400);
    expect((await sendForm(stack.client.baseUrl, '/api/uploads', { token, file: { name: 'a.txt', bytes: 'x' }, fileField: 'upload' })).status).toBe(400);
    expect((await stack.client.post('/api/uploads', { file: 'x' }, { token })).status).toBe(415);
    expect((await upload('a.txt', 'x', '')).status).toBe(401);
    expect((await stack.client.get('/api/uploads/not-a-uuid', { token })).status).toBe(404);
  });
});
