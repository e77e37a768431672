import type { ChatAnswer, ChatEngine, ChatMessageRequest, ChatStreamEvent, ConversationWithMessages, ProviderInfo } from '../../core/ai/ports/chat-engine.port';
import type { ConversationView } from '../../core/conversations/domain/conversation';
import { UnavailableError } from '../../core/shared/errors';
import { errorFromResponse } from './http-error';

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

  listConversations(applicationId: string, page: { page: number; limit: number }) {
    return this.json<{ data: ConversationView[]; total: number; page: number; limit: number }>(
      'GET',
      `/conversations/by-app/${encodeURIComponent(applicationId)}?page=${page.page}&limit=${page.limit}`,
    );
  }

  async archiveConversation(id: string): Promise<void> {
    await this.json('DELETE', `/conversations/${encodeURIComponent(id)}`);
  }

  sendMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal): Promise<ChatAnswer> {
    const { apiKey, ...body } = request;
    return this.json('POST', `/conversations/${encodeURIComponent(conversationId)}/messages`, toWire(body), signal, apiKey);
  }

  async streamMessage(conversationId: string, request: ChatMessageRequest, signal?: AbortSignal): Promise<AsyncIterable<ChatStreamEvent>> {
    const { apiKey, ...body } = request;
    const res = await this.fetch('POST', `/conversations/${encodeURIComponent(conversationId)}/stream`, toWire(body), signal, apiKey);
    if (!res.ok) throw errorFromResponse('AI service', res.status, await res.json().catch(() => ({})), res.headers.get('retry-after'));
    return readSse(res);
  }

  private async json<T>(method: string, path: string, body?: unknown, signal?: AbortSignal, apiKey?: string): Promise<T> {
    const res = await this.fetch(method, path, body, signal, apiKey);
    if (res.status === 204) return undefined as T;
    const parsed = await res.json().catch(() => ({}));
    if (!res.ok) throw errorFromResponse('AI service', res.status, parsed, res.headers.get('retry-after'));
    return parsed as T;
  }

  private async fetch(method: string, path: string, body?: unknown, signal?: AbortSignal, apiKey?: string): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (apiKey) headers['X-Provider-Key'] = apiKey;
    try {
      return await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    } catch (error) {
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
  };
}

/** Parses an SSE body into events, yielding each as soon as its blank line arrives. */
async function* readSse(res: Response): AsyncGenerator<ChatStreamEvent> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
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
    await reader.cancel().catch(() => undefined);
  }
}
