import { listCatalogModels } from '../../../core/ai/domain/model-catalog';
import { bearer, requireMessages, sse, type Exchange, type ProviderProtocol } from './exchange';
import { complete, countTokens, embed, embeddingDimension, textOf, type Prompt } from './synthetic';
import { answerFromResults, argumentPieces, planToolCalls, type EmulatedChoice, type PlannedCall, type ToolState } from './tool-calls';

/** The OpenAI Chat Completions wire format, shared with provider_d's OpenAI-compatible route. */
export interface ChatFlavour {
  idPrefix: string;
  fingerprint: string | null;
}

const OPENAI: ChatFlavour = { idPrefix: 'chatcmpl-', fingerprint: 'fp_emulator' };
let sequence = 0;

export function chatPrompt(messages: any[]): Prompt {
  const system = messages
    .filter((m) => m?.role === 'system' || m?.role === 'developer')
    .map((m) => textOf(m.content))
    .join('\n');
  const users = messages.filter((m) => m?.role === 'user');
  return {
    system: system || undefined,
    lastUser: users.length ? textOf(users[users.length - 1].content) : '',
    allText: messages.map((m) => textOf(m?.content)).join('\n'),
  };
}

/** The tool-use state of an OpenAI-style request: offered functions, the choice, and results since the last user message. */
function toolState(body: any): ToolState {
  const offered = Array.isArray(body.tools) ? body.tools.filter((t: any) => t?.type === 'function').map((t: any) => String(t.function?.name)) : [];
  const raw = body.tool_choice;
  const choice: EmulatedChoice = raw === 'none' || raw === 'required' ? raw : raw?.function?.name ? { name: String(raw.function.name) } : 'auto';
  const messages: any[] = body.messages;
  let lastUser = -1;
  messages.forEach((m, i) => {
    if (m?.role === 'user') lastUser = i;
  });
  const names = new Map<string, string>();
  for (const m of messages) for (const c of m?.tool_calls ?? []) names.set(c.id, c.function?.name);
  const results = messages
    .slice(lastUser + 1)
    .filter((m) => m?.role === 'tool')
    .map((m) => ({ name: names.get(m.tool_call_id) ?? 'unknown', content: textOf(m.content) }));
  return { offered, choice, parallel: body.parallel_tool_calls !== false, lastUser: lastUser >= 0 ? textOf(messages[lastUser].content) : '', results };
}

/** Answers a request whose model calls tools, in the Chat Completions format (streamed: name first, arguments in pieces). */
async function serveToolCalls(ex: Exchange, flavour: ChatFlavour, calls: PlannedCall[], promptTokens: number): Promise<void> {
  const body = ex.body;
  const id = `${flavour.idPrefix}${(++sequence).toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = calls.map((c) => ({ id: `call_${(++sequence).toString(36).padStart(8, '0')}`, type: 'function', function: { name: c.name, arguments: c.argsText } }));
  const completionTokens = calls.reduce((n, c) => n + countTokens(c.name + c.argsText), 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  if (!body.stream) {
    return ex.json(200, {
      id,
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls }, logprobs: null, finish_reason: 'tool_calls' }],
      usage,
      system_fingerprint: flavour.fingerprint,
    });
  }
  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sse({ id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: flavour.fingerprint, choices, ...(withUsage ? { usage: null } : {}), ...extra });
  const delta = (d: Record<string, unknown>, finishReason: string | null = null) => ({ index: 0, delta: d, logprobs: null, finish_reason: finishReason });
  const pieces = toolCalls.flatMap((call, index) => [
    chunk([delta({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] })]),
    ...argumentPieces(call.function.arguments).map((part) => chunk([delta({ tool_calls: [{ index, function: { arguments: part } }] })])),
  ]);
  await ex.stream({
    head: [chunk([delta({ role: 'assistant', content: null })])],
    chunks: pieces,
    tail: [chunk([delta({}, 'tool_calls')]), ...(withUsage ? [chunk([], { usage })] : []), 'data: [DONE]\n\n'],
  });
}

/** Answers `POST …/chat/completions`, as JSON or as `data:` chunks ending with `[DONE]`. */
export async function serveChatCompletion(ex: Exchange, fail: (status: number, message: string) => void, flavour: ChatFlavour): Promise<void> {
  const body = ex.body;
  const problem = requireMessages(body);
  if (problem) return fail(400, problem);
  if (typeof body.model !== 'string' || !body.model) return fail(400, 'you must provide a model parameter');
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  const prompt = chatPrompt(body.messages);
  const tools = toolState(body);
  const calls = planToolCalls(tools);
  if (calls) return serveToolCalls(ex, flavour, calls, countTokens(prompt.allText));
  const reply = ex.behaviour.reply ?? (tools.results.length ? answerFromResults(tools.results) : undefined);
  const result = complete(prompt, typeof maxTokens === 'number' ? maxTokens : undefined, reply);
  const id = `${flavour.idPrefix}${(++sequence).toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const finish = result.truncated ? 'length' : 'stop';
  const usage = { prompt_tokens: result.promptTokens, completion_tokens: result.completionTokens, total_tokens: result.promptTokens + result.completionTokens };

  if (!body.stream) {
    return ex.json(200, {
      id,
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: result.text, refusal: null }, logprobs: null, finish_reason: finish }],
      usage,
      system_fingerprint: flavour.fingerprint,
    });
  }

  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    sse({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      system_fingerprint: flavour.fingerprint,
      choices,
      ...(withUsage ? { usage: null } : {}),
      ...extra,
    });
  const delta = (d: Record<string, unknown>, finishReason: string | null = null) => ({ index: 0, delta: d, logprobs: null, finish_reason: finishReason });
  await ex.stream({
    head: [chunk([delta({ role: 'assistant', content: '', refusal: null })])],
    chunks: result.pieces.map((piece) => chunk([delta({ content: piece })])),
    tail: [chunk([delta({}, finish)]), ...(withUsage ? [chunk([], { usage })] : []), 'data: [DONE]\n\n'],
  });
}

/** Serves `GET …/models` in the OpenAI list format. */
export function serveModelList(ex: Exchange, ids: string[], owner: string): void {
  ex.json(200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: owner })) });
}

const EMBEDDING_MODELS = ['text-embedding-3-small', 'text-embedding-3-large', 'text-embedding-ada-002'];

function serveEmbeddings(ex: Exchange, fail: (status: number, message: string) => void): void {
  const body = ex.body;
  const inputs: unknown[] = typeof body?.input === 'string' ? [body.input] : Array.isArray(body?.input) ? body.input : [];
  if (!inputs.length || !inputs.every((i) => typeof i === 'string')) return fail(400, "'input' must be a string or a non-empty array of strings");
  if (typeof body.model !== 'string') return fail(400, 'you must provide a model parameter');
  const dimension = embeddingDimension(body.model, body.dimensions, 1536);
  const base64 = body.encoding_format === 'base64';
  const data = (inputs as string[]).map((text, index) => {
    const vector = embed(text, dimension);
    return { object: 'embedding', index, embedding: base64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector };
  });
  const tokens = (inputs as string[]).reduce((sum, t) => sum + countTokens(t), 0);
  ex.json(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
}

/**
 * A Cohere/Jina-style rerank endpoint: each document scored by the share of the query's distinct words it
 * holds (a different order from the embeddings' cosine, so a test can tell the reranker ordered the results).
 */
function serveRerank(ex: Exchange, fail: (status: number, message: string) => void): void {
  const body = ex.body;
  if (typeof body?.query !== 'string' || body.query.trim() === '') return fail(400, "'query' must be a non-empty string");
  if (!Array.isArray(body.documents) || !body.documents.every((d: unknown) => typeof d === 'string')) return fail(400, "'documents' must be an array of strings");
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const query = words(body.query);
  const results = (body.documents as string[])
    .map((text, index) => {
      const held = words(text);
      const shared = [...query].filter((w) => held.has(w)).length;
      return { index, relevance_score: Math.round((shared / Math.max(1, query.size)) * 10_000) / 10_000 };
    })
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, Number.isInteger(body.top_n) && body.top_n > 0 ? body.top_n : undefined);
  ex.json(200, { id: 'rerank-emulated', results, meta: { billed_units: { search_units: 1 } } });
}

const ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'not_found'],
  429: ['requests', 'rate_limit_exceeded'],
};

const DEFAULT_MESSAGES: Record<number, string> = {
  404: 'Unknown request URL. Please check the URL for typos.',
  429: 'Rate limit reached for requests. Please try again in 20ms.',
};

export function openAiError(ex: Exchange, status: number, message?: string, code?: string): void {
  const [type, defaultCode] = ERROR_TYPES[status] ?? (status >= 500 ? ['server_error', null] : ['invalid_request_error', null]);
  const text = message ?? DEFAULT_MESSAGES[status] ?? (status >= 500 ? 'The server had an error while processing your request. Sorry about that!' : 'Bad request');
  ex.json(status, { error: { message: text, type, param: null, code: code ?? defaultCode } }, { 'x-request-id': `req_${(++sequence).toString(36)}` });
}

/** provider_a: the OpenAI API under `/v1`. */
export const openAiProtocol: ProviderProtocol = {
  apiKey: (req) => bearer(req),
  rejectKey(ex) {
    const key = ex.record.apiKey;
    const masked = key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(8)}${key.slice(-4)}` : '***';
    openAiError(ex, 401, `Incorrect API key provided: ${masked}. You can find your API key at https://platform.openai.com/account/api-keys.`);
  },
  fail: (ex, status, message) => openAiError(ex, status, message),
  async handle(ex) {
    const fail = (status: number, message: string) => openAiError(ex, status, message);
    const { method } = ex.req;
    if (method === 'POST' && ex.path === '/v1/chat/completions') {
      await serveChatCompletion(ex, fail, OPENAI);
      return true;
    }
    if (method === 'POST' && ex.path === '/v1/embeddings') {
      serveEmbeddings(ex, fail);
      return true;
    }
    if (method === 'POST' && ex.path === '/v1/rerank') {
      serveRerank(ex, fail);
      return true;
    }
    const ids = [...listCatalogModels('provider_a').map((m) => m.id), ...EMBEDDING_MODELS];
    if (method === 'GET' && ex.path === '/v1/models') {
      const size = ex.behaviour.modelListSize ?? 0;
      const padded = size > ids.length ? [...ids, ...Array.from({ length: size - ids.length }, (_, i) => `emulated-model-${i + 1}`)] : ids;
      serveModelList(ex, padded, 'openai');
      return true;
    }
    const one = /^\/v1\/models\/(.+)$/.exec(ex.path);
    if (method === 'GET' && one) {
      const id = decodeURIComponent(one[1]!);
      if (ids.includes(id)) ex.json(200, { id, object: 'model', created: 1_700_000_000, owned_by: 'openai' });
      else openAiError(ex, 404, `The model '${id}' does not exist`, 'model_not_found');
      return true;
    }
    return false;
  },
};
