import { listCatalogModels } from '../../../core/ai/domain/model-catalog';
import { bearer, type Exchange, type ProviderProtocol } from './exchange';
import { serveChatCompletion, serveModelList } from './openai.protocol';
import { embed, embeddingDimension } from './synthetic';

/**
 * provider_d: what @huggingface/inference sends when given an `endpointUrl` E (a text-generation /
 * text-embeddings inference endpoint, or the router):
 * - chatCompletion / chatCompletionStream: `POST E/v1/chat/completions` (E/chat/completions when E ends
 *   with /v1), OpenAI-style body with `model`, `stream: true` for the stream;
 * - featureExtraction: `POST E` with `{ inputs, ...parameters }` and no model; answers number[] for
 *   one text, number[][] for a list.
 * The router's own routes (`/models/<org>/<name>/pipeline/feature-extraction`, `/v1/models`) are served too.
 */
const TGI = { idPrefix: '', fingerprint: '3.3.6-emulator' };

function hfError(ex: Exchange, status: number, message?: string): void {
  const text = message ?? (status >= 500 ? 'Internal Server Error' : status === 429 ? 'Rate limit reached. Please retry later.' : 'Bad Request');
  const errorType = status === 400 || status === 422 ? 'validation' : status >= 500 ? 'generation' : undefined;
  ex.json(status, { error: text, ...(errorType ? { error_type: errorType } : {}) });
}

function serveFeatures(ex: Exchange, model: string | undefined): void {
  const inputs = ex.body?.inputs;
  const texts: unknown[] = typeof inputs === 'string' ? [inputs] : Array.isArray(inputs) ? inputs : [];
  if (!texts.length || !texts.every((t) => typeof t === 'string')) return hfError(ex, 422, 'Input validation error: `inputs` must be a string or a list of strings');
  const dimension = embeddingDimension(model, ex.body?.dimensions, 384);
  const vectors = (texts as string[]).map((t) => embed(t, dimension));
  ex.json(200, typeof inputs === 'string' ? vectors[0] : vectors);
}

export const huggingFaceProtocol: ProviderProtocol = {
  apiKey: (req) => bearer(req),
  rejectKey: (ex) => hfError(ex, 401, 'Invalid credentials in Authorization header'),
  fail: (ex, status, message) => hfError(ex, status, message),
  async handle(ex) {
    const { method } = ex.req;
    const path = ex.path.replace(/\/+$/, '') || '/';
    const routed = /^\/models\/([^/]+\/[^/]+)(\/.*)?$/.exec(path);
    const rest = routed ? routed[2] || '/' : path;
    if (method === 'POST' && (rest === '/v1/chat/completions' || rest === '/chat/completions')) {
      if (routed && ex.body && typeof ex.body === 'object' && !ex.body.model) ex.body.model = routed[1];
      await serveChatCompletion(ex, (status, message) => hfError(ex, status, message), TGI);
      return true;
    }
    if (method === 'POST' && (rest === '/' || rest === '/pipeline/feature-extraction' || rest === '/embed')) {
      serveFeatures(ex, routed?.[1]);
      return true;
    }
    if (method === 'GET' && (path === '/v1/models' || path === '/models')) {
      serveModelList(ex, listCatalogModels('provider_d').map((m) => m.id), 'huggingface');
      return true;
    }
    return false;
  },
};
