import { listCatalogModels } from '../../../core/ai/domain/model-catalog';
import { bearer, requireMessages, sse, type Exchange, type ProviderProtocol } from './exchange';
import { complete, countTokens, textOf, type Prompt } from './synthetic';
import { answerFromResults, argumentPieces, planToolCalls, type EmulatedChoice, type PlannedCall, type ToolState } from './tool-calls';

let sequence = 0;
const nextId = (prefix: string) => `${prefix}${(++sequence).toString(36).padStart(8, '0')}`;

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

function anthropicError(ex: Exchange, status: number, message?: string): void {
  const type = ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  const text = message ?? (status >= 500 ? 'Internal server error' : status === 429 ? 'Number of requests has exceeded your rate limit' : 'Invalid request');
  const requestId = nextId('req_');
  ex.json(status, { type: 'error', error: { type, message: text }, request_id: requestId }, { 'request-id': requestId });
}

/** Blocks of a message's content, whatever form it came in. */
const blocks = (content: unknown): any[] => (Array.isArray(content) ? content : []);
const hasText = (m: any) => typeof m?.content === 'string' || blocks(m?.content).some((b) => b?.type === 'text');

/** Tool use of a Messages request: tools offered, tool_choice, and tool_result blocks since the user last wrote. */
function toolState(body: any): ToolState {
  const offered = Array.isArray(body.tools) ? body.tools.map((t: any) => String(t?.name)) : [];
  const raw = body.tool_choice;
  const choice: EmulatedChoice = raw?.type === 'none' ? 'none' : raw?.type === 'any' ? 'required' : raw?.type === 'tool' ? { name: String(raw.name) } : 'auto';
  const messages: any[] = body.messages;
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m?.role === 'user' && hasText(m)) lastUser = i;
  });
  const names = new Map<string, string>();
  for (const m of messages) for (const b of blocks(m?.content)) if (b?.type === 'tool_use') names.set(b.id, b.name);
  const results = messages
    .slice(lastUser + 1)
    .flatMap((m) => blocks(m?.content).filter((b) => b?.type === 'tool_result'))
    .map((b) => ({ name: names.get(b.tool_use_id) ?? 'unknown', content: textOf(b.content) }));
  return { offered, choice, parallel: raw?.disable_parallel_tool_use !== true, lastUser: lastUser >= 0 ? textOf(messages[lastUser].content) : '', results };
}

function prompt(body: any): Prompt {
  const system = textOf(body.system);
  const users = body.messages.filter((m: any) => m?.role === 'user' && hasText(m));
  return {
    system: system || undefined,
    lastUser: users.length ? textOf(users[users.length - 1].content) : '',
    allText: [system, ...body.messages.map((m: any) => textOf(m?.content))].join('\n'),
  };
}

function validate(body: any): string | undefined {
  const problem = requireMessages(body);
  if (problem) return problem;
  if (typeof body.model !== 'string' || !body.model) return 'model: Field required';
  if (!Number.isInteger(body.max_tokens) || body.max_tokens < 1) return 'max_tokens: Field required';
  const bad = body.messages.findIndex((m: any) => m?.role !== 'user' && m?.role !== 'assistant');
  if (bad >= 0) return `messages.${bad}.role: Input should be 'user' or 'assistant'`;
  return undefined;
}

async function serveMessages(ex: Exchange): Promise<void> {
  const body = ex.body;
  const problem = validate(body);
  if (problem) return anthropicError(ex, 400, problem);
  const tools = toolState(body);
  const calls = planToolCalls(tools);
  const reply = ex.behaviour.reply ?? (tools.results.length ? answerFromResults(tools.results) : undefined);
  const result = complete(prompt(body), body.max_tokens, reply);
  const id = nextId('msg_emu_');
  const stopReason = result.truncated ? 'max_tokens' : 'end_turn';
  const message = (content: unknown[], usage: Record<string, number>, stop: string | null) => ({
    id,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard', ...usage },
  });

  if (calls) return serveToolUse(ex, calls, result.promptTokens, message);

  if (!body.stream) {
    return ex.json(200, message([{ type: 'text', text: result.text }], { input_tokens: result.promptTokens, output_tokens: result.completionTokens }, stopReason), {
      'request-id': nextId('req_'),
    });
  }

  await ex.stream({
    head: [
      sse({ type: 'message_start', message: message([], { input_tokens: result.promptTokens, output_tokens: 1 }, null) }, 'message_start'),
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
      sse({ type: 'ping' }, 'ping'),
    ],
    chunks: result.pieces.map((text) => sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta')),
    tail: [
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
      sse(
        { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { input_tokens: result.promptTokens, output_tokens: result.completionTokens } },
        'message_delta',
      ),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  }, 'text/event-stream; charset=utf-8', { 'request-id': nextId('req_') });
}

/** The model calls tools: `tool_use` blocks (streamed: the block opens, its input comes as input_json_delta pieces). */
async function serveToolUse(ex: Exchange, calls: PlannedCall[], inputTokens: number, message: (content: unknown[], usage: Record<string, number>, stop: string | null) => unknown): Promise<void> {
  const uses = calls.map((c) => ({ type: 'tool_use', id: nextId('toolu_emu_'), name: c.name, input: c.args }));
  const outputTokens = calls.reduce((n, c) => n + countTokens(c.name + JSON.stringify(c.args)), 0);
  if (!ex.body.stream) return ex.json(200, message(uses, { input_tokens: inputTokens, output_tokens: outputTokens }, 'tool_use'), { 'request-id': nextId('req_') });
  const chunks = uses.flatMap((use, index) => [
    sse({ type: 'content_block_start', index, content_block: { ...use, input: {} } }, 'content_block_start'),
    ...argumentPieces(JSON.stringify(use.input)).map((partial_json) => sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }, 'content_block_delta')),
    sse({ type: 'content_block_stop', index }, 'content_block_stop'),
  ]);
  await ex.stream({
    head: [sse({ type: 'message_start', message: message([], { input_tokens: inputTokens, output_tokens: 1 }, null) }, 'message_start')],
    chunks,
    tail: [
      sse({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: inputTokens, output_tokens: outputTokens } }, 'message_delta'),
      sse({ type: 'message_stop' }, 'message_stop'),
    ],
  }, 'text/event-stream; charset=utf-8', { 'request-id': nextId('req_') });
}

const modelInfo = (id: string) => ({ type: 'model', id, display_name: id, created_at: '2024-10-22T00:00:00Z' });

/** provider_b: the Anthropic Messages API. The key comes as `x-api-key` or, from newer SDKs, a bearer token. */
export const anthropicProtocol: ProviderProtocol = {
  apiKey: (req) => (typeof req.headers['x-api-key'] === 'string' ? req.headers['x-api-key'] : bearer(req)),
  rejectKey: (ex) => anthropicError(ex, 401, 'invalid x-api-key'),
  fail: (ex, status, message) => anthropicError(ex, status, message),
  async handle(ex) {
    const { method } = ex.req;
    if (method === 'POST' && ex.path === '/v1/messages') {
      await serveMessages(ex);
      return true;
    }
    const ids = listCatalogModels('provider_b').map((m) => m.id);
    if (method === 'GET' && ex.path === '/v1/models') {
      ex.json(200, { data: ids.map(modelInfo), has_more: false, first_id: ids[0] ?? null, last_id: ids[ids.length - 1] ?? null });
      return true;
    }
    const one = /^\/v1\/models\/(.+)$/.exec(ex.path);
    if (method === 'GET' && one) {
      const id = decodeURIComponent(one[1]!);
      if (ids.includes(id)) ex.json(200, modelInfo(id));
      else anthropicError(ex, 404, `model: ${id}`);
      return true;
    }
    return false;
  },
};
