import { findModel, listCatalogModels } from '../../../core/ai/domain/model-catalog';
import type { Exchange, ProviderProtocol } from './exchange';
import { complete, countTokens, embed, embeddingDimension, textOf, type Prompt } from './synthetic';
import { answerFromResults, planToolCalls, type EmulatedChoice, type ToolState } from './tool-calls';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function geminiError(ex: Exchange, status: number, message?: string, details?: unknown[]): void {
  const text =
    message ??
    (status >= 500 ? 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting' : status === 429 ? 'Resource has been exhausted (e.g. check quota).' : status === 404 ? 'Requested entity was not found.' : 'Request contains an invalid argument.');
  ex.json(status, { error: { code: status, message: text, status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'), ...(details ? { details } : {}) } });
}

const EMBEDDING_MODELS = ['text-embedding-004', 'gemini-embedding-001'];

const parts = (c: any): any[] => (Array.isArray(c?.parts) ? c.parts : []);
const isUserText = (c: any) => (c?.role ?? 'user') === 'user' && parts(c).some((p) => typeof p?.text === 'string');

/** Function calling of a request: declarations offered, the calling mode, and functionResponse parts since the user last wrote. */
function toolState(body: any): ToolState {
  const offered = (Array.isArray(body.tools) ? body.tools : []).flatMap((t: any) => (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : [])).map((f: any) => String(f?.name));
  const config = body.toolConfig?.functionCallingConfig;
  const allowed: unknown[] = Array.isArray(config?.allowedFunctionNames) ? config.allowedFunctionNames : [];
  const choice: EmulatedChoice =
    config?.mode === 'NONE' ? 'none' : config?.mode === 'ANY' ? (allowed.length === 1 ? { name: String(allowed[0]) } : 'required') : 'auto';
  const contents: any[] = body.contents;
  let lastUser = -1;
  contents.forEach((c, i) => {
    if (isUserText(c)) lastUser = i;
  });
  const results = contents
    .slice(lastUser + 1)
    .flatMap((c) => parts(c).filter((p) => p?.functionResponse))
    .map((p) => {
      const response = p.functionResponse.response;
      const content = typeof response?.content === 'string' ? response.content : typeof response?.error === 'string' ? response.error : JSON.stringify(response ?? null);
      return { name: String(p.functionResponse.name), content };
    });
  // Gemini has no switch for parallel calls: the model may always make several.
  return { offered, choice, parallel: true, lastUser: lastUser >= 0 ? textOf(contents[lastUser].parts) : '', results };
}

function prompt(body: any): Prompt {
  const system = textOf(body.systemInstruction?.parts);
  const users = body.contents.filter((c: any) => isUserText(c));
  return {
    system: system || undefined,
    lastUser: users.length ? textOf(users[users.length - 1].parts) : '',
    allText: [system, ...body.contents.map((c: any) => textOf(c?.parts))].join('\n'),
  };
}

function validate(body: any): string | undefined {
  if (!Array.isArray(body?.contents) || body.contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  const bad = body.contents.findIndex((c: any) => c?.role !== undefined && c.role !== 'user' && c.role !== 'model');
  if (bad >= 0) return `Please use a valid role: user, model.`;
  const t = body.generationConfig?.temperature;
  if (t !== undefined && (typeof t !== 'number' || t < 0 || t > 2)) return 'Unable to submit request because temperature must be in the range [0.0, 2.0].';
  return undefined;
}

async function serveGenerate(ex: Exchange, model: string, stream: boolean): Promise<void> {
  const body = ex.body;
  const problem = validate(body);
  if (problem) return geminiError(ex, 400, problem);
  const tools = toolState(body);
  const calls = planToolCalls(tools);
  const reply = ex.behaviour.reply ?? (tools.results.length ? answerFromResults(tools.results) : undefined);
  const result = complete(prompt(body), body.generationConfig?.maxOutputTokens, reply);
  const usage = { promptTokenCount: result.promptTokens, candidatesTokenCount: result.completionTokens, totalTokenCount: result.promptTokens + result.completionTokens };
  const finishReason = result.truncated ? 'MAX_TOKENS' : 'STOP';
  if (calls) {
    // Function calls come whole, one part each; a stream sends one call per chunk.
    const callParts = calls.map((c) => ({ functionCall: { name: c.name, args: c.args } }));
    const callUsage = { promptTokenCount: result.promptTokens, candidatesTokenCount: calls.length, totalTokenCount: result.promptTokens + calls.length };
    const callCandidate = (p: unknown[], last: boolean) => ({ content: { parts: p, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 });
    if (!stream) return ex.json(200, { candidates: [callCandidate(callParts, true)], usageMetadata: callUsage, modelVersion: model });
    const callChunks = callParts.map((p, i) => ({ candidates: [callCandidate([p], i === callParts.length - 1)], ...(i === callParts.length - 1 ? { usageMetadata: callUsage } : {}), modelVersion: model }));
    if (ex.record.query.alt === 'sse') return ex.stream({ head: [], chunks: callChunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`), tail: [] });
    return ex.stream({ head: ['['], chunks: callChunks.map((c, i) => `${i ? ',\r\n' : ''}${JSON.stringify(c)}`), tail: [']'] }, 'application/json; charset=UTF-8');
  }
  const candidate = (text: string, last: boolean) => ({ content: { parts: [{ text }], role: 'model' }, ...(last ? { finishReason } : {}), index: 0 });

  if (!stream) return ex.json(200, { candidates: [candidate(result.text, true)], usageMetadata: usage, modelVersion: model });

  const chunks = result.pieces.map((piece, i) => {
    const last = i === result.pieces.length - 1;
    return { candidates: [candidate(piece, last)], usageMetadata: last ? usage : { promptTokenCount: result.promptTokens, totalTokenCount: result.promptTokens }, modelVersion: model };
  });
  if (ex.record.query.alt === 'sse') {
    // The SDK splits events on a blank line; the service ends each one with CRLF CRLF.
    await ex.stream({ head: [], chunks: chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`), tail: [] });
  } else {
    await ex.stream({ head: ['['], chunks: chunks.map((c, i) => `${i ? ',\r\n' : ''}${JSON.stringify(c)}`), tail: [']'] }, 'application/json; charset=UTF-8');
  }
}

function embedOne(request: any, model: string): number[] | string {
  const text = textOf(request?.content?.parts);
  if (!Array.isArray(request?.content?.parts)) return '* EmbedContentRequest.content: contents is not specified';
  return embed(text, embeddingDimension(model, request.outputDimensionality, 768));
}

function serveEmbed(ex: Exchange, model: string, batch: boolean): void {
  const requests: unknown[] = batch ? (Array.isArray(ex.body?.requests) ? ex.body.requests : []) : [ex.body];
  if (!requests.length) return geminiError(ex, 400, '* BatchEmbedContentsRequest.requests: requests is not specified');
  const vectors = requests.map((r) => embedOne(r, model));
  const problem = vectors.find((v): v is string => typeof v === 'string');
  if (problem) return geminiError(ex, 400, problem);
  const values = vectors as number[][];
  ex.json(200, batch ? { embeddings: values.map((v) => ({ values: v })) } : { embedding: { values: values[0] } });
}

function modelResource(id: string) {
  const known = findModel('provider_c', id);
  const embedding = EMBEDDING_MODELS.includes(id);
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: `Emulated ${id}`,
    inputTokenLimit: known?.contextWindow ?? 2048,
    outputTokenLimit: known?.maxOutputTokens ?? 1,
    supportedGenerationMethods: embedding ? ['embedContent'] : ['generateContent', 'countTokens'],
    ...(embedding ? {} : { temperature: 1, topP: 0.95, topK: 40, maxTemperature: 2 }),
  };
}

const API_KEY_INVALID = 'API key not valid. Please pass a valid API key.';

/** provider_c: the Gemini API as the SDK addresses it: `<baseUrl>/<apiVersion>/models/<model>:<task>`. */
export const geminiProtocol: ProviderProtocol = {
  apiKey: (req, query) => (typeof req.headers['x-goog-api-key'] === 'string' ? req.headers['x-goog-api-key'] : (query.get('key') ?? '')),
  rejectKey(ex) {
    if (!ex.record.apiKey) return geminiError(ex, 403, "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
    // The service answers a wrong key with 400 and the reason API_KEY_INVALID, not with 401.
    geminiError(ex, 400, API_KEY_INVALID, [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
      { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message: API_KEY_INVALID },
    ]);
  },
  fail: (ex, status, message) => geminiError(ex, status, message),
  async handle(ex) {
    const { method } = ex.req;
    const ids = [...listCatalogModels('provider_c').map((m) => m.id), ...EMBEDDING_MODELS];
    const task = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):([A-Za-z]+)$/.exec(ex.path);
    if (method === 'POST' && task) {
      const model = decodeURIComponent(task[1]!);
      switch (task[2]) {
        case 'generateContent':
          await serveGenerate(ex, model, false);
          return true;
        case 'streamGenerateContent':
          await serveGenerate(ex, model, true);
          return true;
        case 'embedContent':
          serveEmbed(ex, model, false);
          return true;
        case 'batchEmbedContents':
          serveEmbed(ex, model, true);
          return true;
        case 'countTokens': {
          const contents = ex.body?.contents ?? ex.body?.generateContentRequest?.contents ?? [];
          ex.json(200, { totalTokens: countTokens(contents.map((c: any) => textOf(c?.parts)).join('\n')) });
          return true;
        }
        default:
          return false;
      }
    }
    if (method === 'GET' && /^\/v1(?:beta|alpha)?\/models$/.test(ex.path)) {
      ex.json(200, { models: ids.map(modelResource) });
      return true;
    }
    const one = /^\/v1(?:beta|alpha)?\/models\/([^/:]+)$/.exec(ex.path);
    if (method === 'GET' && one) {
      const id = decodeURIComponent(one[1]!);
      if (ids.includes(id)) ex.json(200, modelResource(id));
      else geminiError(ex, 404, `models/${id} is not found for API version v1beta, or is not supported for generateContent.`);
      return true;
    }
    return false;
  },
};
