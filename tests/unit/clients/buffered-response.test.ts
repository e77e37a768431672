import { BufferedResponse } from '../../../adapters/clients/node-http-fetch';

const make = (text = '{"answer":42}') =>
  new BufferedResponse(Buffer.from(text), { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json', 'x-request-id': 'r1' } });

describe('BufferedResponse', () => {
  it('is a Response with the status and headers it was given', () => {
    const res = make();
    expect(res).toBeInstanceOf(Response);
    expect([res.status, res.statusText, res.ok]).toEqual([201, 'Created', true]);
    expect(res.headers.get('x-request-id')).toBe('r1');
  });

  it('reads its body as JSON, text, bytes or a blob, once', async () => {
    const json = make();
    expect(json.bodyUsed).toBe(false);
    expect(await json.json()).toEqual({ answer: 42 });
    expect(json.bodyUsed).toBe(true);
    await expect(json.text()).rejects.toThrow(TypeError);

    expect(await make('héllo').text()).toBe('héllo');
    expect(new TextDecoder().decode(await make('abc').arrayBuffer())).toBe('abc');
    expect(Array.from(await make('ab').bytes())).toEqual([97, 98]);
    const blob = await make('xyz').blob();
    expect([blob.type, await blob.text()]).toEqual(['application/json', 'xyz']);
    await expect(make('not json').json()).rejects.toThrow(SyntaxError);
  });

  it('serves the body as a stream when asked, and then only as a stream', async () => {
    const res = make('streamed');
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(Buffer.concat(chunks).toString()).toBe('streamed');
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toMatchObject({ name: 'TypeError' }); // undici's own realm
  });

  it('can still be read whole after its stream was looked at, as a Response can', async () => {
    const res = make();
    expect(res.body).not.toBeNull();
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ answer: 42 });
    expect(res.bodyUsed).toBe(true);
  });

  it('clones an unread body, and refuses to clone a read one', async () => {
    const res = make();
    const copy = res.clone();
    expect(await copy.json()).toEqual({ answer: 42 });
    expect(await res.text()).toBe('{"answer":42}');
    expect(() => res.clone()).toThrow(TypeError);
  });
});
