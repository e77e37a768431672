import type { ChatAnswer, ChatEngine, ChatMessageRequest, ChatStreamEvent, ConversationWithMessages, ProviderInfo } from '../../core/ai/ports/chat-engine.port';
import type { ConversationView } from '../../core/conversations/domain/conversation';
import { UnavailableError, UpstreamError } from '../../core/shared/errors';
import type { IncomingMessage } from 'node:http';
import { errorFromResponse } from './http-error';
import { readText, send } from './keep-alive-http';

/**
 * The chat engine of a remote AI service, over its HTTP API (SPEC 4.4). The user's own provider key,
 * when there is one, travels only in the `X-Provider-Key` header of the internal call.
 */
export class HttpChatEngine implements ChatEngine {
  private readonly base: string;

  constructor(baseUrl: string, private readonly token: string) {
    this.base = baseUrl.replace(/\/+$/, '') + '/api/ai';
  }

  providers(): Promise<ProviderInfo[]> {
    return this.json('GET', '/providers');
  }

  models(provider: string): Promise<ProviderInfo['models']> {
    return this.json('GET', `/providers/${encodeURIComponent(provider)}/models`);
  }

  createConversation(input: Parameters<ChatEngine['createConversation']>[0]): Promise<ConversationView> {
    return this.json('POST', '/conversations', input);
  }

  getConversation(id: string): Promise<ConversationWithMessages> {
    return this.json('GET', `/conversations/${encodeURIComponent(id)}`);
  }

  /** The service answers the page's items as an array, the number of all of them in `X-Total-Count`. */
  async listConversations(applicationId: string, page: { page: number; limit: number }) {
    const res = await this.call('GET', `/conversations/by-app/${encodeURIComponent(applicationId)}?page=${page.page}&limit=${page.limit}`);
    const text = await readText(res);
    if (res.statusCode! >= 400) throw failure(res, text);
    const data = JSON.parse(text) as ConversationView[];
    const total = Number(res.headers['x-total-count']);
    if (!Array.isArray(data) || !Number.isInteger(total)) throw new UpstreamError('The AI service answered a list without its total');
    return { data, total, page: page.page, limit: page.limit };
  }

  async archiveConversation(id: string): Promise<void> {
    await this.json('DELETE', `/conversations/${encodeURIComponent(id)}`);
  }

  sendMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal): Promise<ChatAnswer> {
    const { apiKey, trace, ...body } = request;
    return this.json('POST', `/conversations/${encodeURIComponent(conversationId)}/messages`, toWire(body), signal, apiKey, trace?.traceparent());
  }

  async streamMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const { apiKey, trace, ...body } = request;
    const res = await this.call('POST', `/conversations/${encodeURIComponent(conversationId)}/stream`, toWire(body), signal, apiKey, trace?.traceparent());
    if (res.statusCode !== 200) throw failure(res, await readText(res));
    return readSse(res);
  }

  private async json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal, apiKey?: string, traceparent?: string): Promise<T> {
    const res = await this.call(method, path, body, signal, apiKey, traceparent);
    const text = await readText(res);
    if (res.statusCode! >= 400) throw failure(res, text);
    return (res.statusCode === 204 || text === '' ? undefined : JSON.parse(text)) as T;
  }

  private async call(method: string, path: string, body?: unknown, signal?: AbortSignal, apiKey?: string, traceparent?: string): Promise<IncomingMessage> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (apiKey) headers['x-provider-key'] = apiKey;
    // The turn's trace continues in the AI service under this span (W3C Trace Context).
    if (traceparent) headers.traceparent = traceparent;
    try {
      return await send(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    } catch {
      if (signal?.aborted) throw signal.reason;
      throw new UnavailableError('The AI service is unreachable');
    }
  }
}

/** The AI service reads the SPEC 4.4 names for settings it knows, and the rest from `settings`. */
function toWire(request: Omit<ChatMessageRequest, 'apiKey'>): Record<string, unknown> {
  return {
    content: request.content,
    provider: request.provider,
    model: request.model,
    settings: request.settings,
    context: request.context,
    configVersionId: request.configVersionId,
    sources: request.sources,
    startConversation: request.startConversation,
    announce: request.announce,
    tools: request.tools,
    // An owner's connection and fallback keys, opened for this turn only (docs/connections.md); the service token guards them.
    ...(request.connection ? { connection: request.connection } : {}),
    ...(request.fallbackKeys ? { fallbackKeys: request.fallbackKeys } : {}),
    ...(request.fallbackConnections?.length ? { fallbackConnections: request.fallbackConnections } : {}),
  };
}

function failure(res: IncomingMessage, text: string) {
  let parsed: unknown = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: the status alone speaks
  }
  return errorFromResponse('AI service', res.statusCode ?? 502, parsed, res.headers['retry-after'] as string | undefined);
}

/** Parses an SSE body into events, yielding each as soon as its blank line arrives. */
async function* readSse(res: IncomingMessage): AsyncGenerator<ChatStreamEvent> {
  res.setEncoding('utf8');
  let buffer = '';
  try {
    for await (const text of res) {
      buffer += text as string;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data) yield JSON.parse(data) as ChatStreamEvent;
      }
    }
  } finally {
    // Stopping early (the client went away) cancels the upstream request too.
    if (!res.complete) res.destroy();
  }
}
