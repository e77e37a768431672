import { Readable } from 'node:stream';
import { send } from './keep-alive-http';

/**
 * A `fetch` for the provider SDKs that accept one (openai, @anthropic-ai/sdk, @huggingface/inference),
 * over node:http with kept-alive connections: Node's global fetch costs several times its CPU per call,
 * and a provider call sits on every chat turn. It covers what the SDKs send (a method, headers, a text
 * or byte body, an abort signal); anything else goes to the global fetch. Streamed answers
 * (`text/event-stream`) are handed over as they arrive; other bodies are read whole first.
 */
export const nodeHttpFetch: typeof fetch = async (input, init = {}) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init.body;
  if (url === undefined || !(body === undefined || body === null || typeof body === 'string')) return fetch(input, init);

  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortError(signal);
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const method = (init.method ?? 'GET').toUpperCase();
  let res;
  try {
    res = await send(url, { method, headers, body: body ?? undefined, signal });
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    // The SDKs tell connection failures apart by a TypeError whose cause carries the code, as fetch's.
    throw Object.assign(new TypeError('fetch failed'), { cause: error });
  }
  const responseHeaders = new Headers();
  for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const init2 = { status: res.statusCode ?? 502, statusText: res.statusMessage ?? '', headers: responseHeaders };
  if (method === 'HEAD' || init2.status === 204 || init2.status === 304) {
    res.resume();
    return new Response(null, init2);
  }
  if ((responseHeaders.get('content-type') ?? '').includes('text/event-stream')) {
    return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, init2);
  }
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of res) chunks.push(chunk as Buffer);
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    throw Object.assign(new TypeError('fetch failed'), { cause: error });
  }
  return new BufferedResponse(Buffer.concat(chunks), init2);
};

/**
 * A whole response body already in memory. A plain `Response` wraps its bytes in a web stream and
 * reads them back through it; the SDKs only ask for `json()` or `text()`, so those read the bytes
 * directly. Once anyone asks for `body`, a standard response over the same bytes takes over.
 */
export class BufferedResponse extends Response {
  #bytes: Buffer<ArrayBuffer>;
  #used = false;
  #stream: Response | undefined;

  constructor(bytes: Buffer<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  override get body(): Response['body'] {
    return this.#streamed().body;
  }

  override get bodyUsed(): boolean {
    return this.#stream ? this.#stream.bodyUsed : this.#used;
  }

  override async text(): Promise<string> {
    return this.#stream ? this.#stream.text() : this.#take().toString('utf8');
  }

  override async json(): Promise<unknown> {
    return this.#stream ? this.#stream.json() : JSON.parse(this.#take().toString('utf8'));
  }

  override async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#stream) return this.#stream.arrayBuffer();
    const bytes = this.#take();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }

  override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return new Uint8Array(await this.arrayBuffer());
  }

  override async blob(): Promise<Blob> {
    return new Blob([await this.arrayBuffer()], { type: this.headers.get('content-type') ?? '' });
  }

  override formData(): Promise<FormData> {
    return this.#streamed().formData();
  }

  override clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    return new BufferedResponse(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
  }

  #take(): Buffer<ArrayBuffer> {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes;
  }

  /** A standard response over the same bytes, made the first time the stream itself is wanted. */
  #streamed(): Response {
    if (!this.#stream) {
      if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
      this.#stream = new Response(this.#bytes, { status: this.status, statusText: this.statusText, headers: this.headers });
    }
    return this.#stream;
  }
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError');
}
