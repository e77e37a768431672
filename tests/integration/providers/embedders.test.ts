import type { ProviderId } from '../../../core/ai/domain/provider-id';
import type { Embedder } from '../../../core/knowledge/ports/embedder.port';
import { UnavailableError, UpstreamError, UpstreamTimeoutError } from '../../../core/shared/errors';
import type { EmbedderOptions } from '../../../adapters/providers/embedding-vectors';
import { GeminiEmbedder } from '../../../adapters/providers/gemini.embedder';
import { HuggingFaceEmbedder } from '../../../adapters/providers/hugging-face.embedder';
import { OpenAiEmbedder } from '../../../adapters/providers/openai.embedder';
import { startEmulator, type Emulator } from '../../support/emulator/emulator';

interface EmbedderCase {
  id: ProviderId;
  make: (options: EmbedderOptions) => Embedder;
  key: string;
  model: string;
  nativeDimension: number;
}

const CASES: EmbedderCase[] = [
  { id: 'provider_a', make: (o) => new OpenAiEmbedder(o), key: 'sk-embed-a', model: 'text-embedding-3-small', nativeDimension: 1536 },
  { id: 'provider_c', make: (o) => new GeminiEmbedder(o), key: 'AIzaSyEmbedC', model: 'text-embedding-004', nativeDimension: 768 },
  { id: 'provider_d', make: (o) => new HuggingFaceEmbedder(o), key: 'hf_embedD', model: 'sentence-transformers/all-MiniLM-L6-v2', nativeDimension: 384 },
];

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());
beforeEach(() => emulator.reset());

const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

describe.each(CASES)('$id embedder through its SDK against the emulator', ({ id, make, key, model, nativeDimension }) => {
  const embedder = (options: Partial<EmbedderOptions> = {}) => make({ baseUrl: emulator.baseUrls[id], timeoutMs: 5_000, ...options });

  it('returns one normalized vector per text, in order, of the model dimension', async () => {
    const e = embedder();
    expect(e.model).toBe(model);
    expect(e.dimension).toBe(nativeDimension);
    const texts = ['refund policy for annual plans', 'office opening hours', 'refund policy for annual plans'];
    const vectors = await e.embed(texts, { apiKey: key });
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toHaveLength(nativeDimension);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(dot(vectors[0]!, vectors[2]!)).toBeCloseTo(1, 5);
    expect(dot(vectors[0]!, vectors[1]!)).toBeLessThan(0.5);
    expect(emulator.requests.at(-1)!.apiKey).toBe(key);
  });

  it('asks the provider for a smaller dimension when configured', async () => {
    const vectors = await embedder({ dimension: 64 }).embed(['short vectors please'], { apiKey: key });
    expect(vectors[0]).toHaveLength(64);
    expect(norm(vectors[0]!)).toBeCloseTo(1, 5);
  });

  it('splits many texts into batches and keeps their order', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `document number ${i} about topic${i}`);
    const vectors = await embedder({ dimension: 16 }).embed(texts, { apiKey: key });
    expect(vectors).toHaveLength(300);
    const single = await embedder({ dimension: 16 }).embed([texts[257]!], { apiKey: key });
    expect(vectors[257]).toEqual(single[0]);
    expect(emulator.requests.length).toBeGreaterThan(2);
  });

  it('uses the configured key when the call brings none, and needs one of the two', async () => {
    await embedder({ apiKey: `${key}-platform` }).embed(['x'], {});
    expect(emulator.requests.at(-1)!.apiKey).toBe(`${key}-platform`);
    await expect(embedder().embed(['x'])).rejects.toBeInstanceOf(UnavailableError);
  });

  it('answers an empty list without calling the provider', async () => {
    expect(await embedder().embed([], { apiKey: key })).toEqual([]);
    expect(emulator.requests).toHaveLength(0);
  });

  it('maps a refused key to 424 naming its hint, and a slow provider to a timeout', async () => {
    const refusal = await embedder().embed(['x'], { apiKey: `${key}-rejected` }).catch((e: Error) => e);
    expect(refusal).toMatchObject({ status: 424 });
    expect((refusal as Error).message).toMatch(new RegExp(`^${id} \\(.+\\) rejected the API key ending in "cted"`));
    emulator.behaviour.delayMs = 5_000;
    await expect(embedder({ timeoutMs: 600 }).embed(['x'], { apiKey: key })).rejects.toBeInstanceOf(UpstreamTimeoutError);
  });
});

describe('embedders: wire details', () => {
  it('provider_a lets the SDK fetch base64 and decode it, asking for `dimensions` only when reduced', async () => {
    await new OpenAiEmbedder({ baseUrl: emulator.baseUrls.provider_a, timeoutMs: 5_000, apiKey: 'sk-x' }).embed(['a']);
    expect(emulator.requests.at(-1)!.body).toEqual({ model: 'text-embedding-3-small', input: ['a'], encoding_format: 'base64' });
  });

  it('provider_c uses batchEmbedContents with the model in the path', async () => {
    await new GeminiEmbedder({ baseUrl: emulator.baseUrls.provider_c, timeoutMs: 5_000, apiKey: 'AIzaSyX', dimension: 32 }).embed(['a', 'b']);
    const recorded = emulator.requests.at(-1)!;
    expect(recorded.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(recorded.body.requests).toHaveLength(2);
    expect(recorded.body.requests[0]).toMatchObject({ model: 'models/text-embedding-004', outputDimensionality: 32, content: { parts: [{ text: 'a' }] } });
  });

  it('provider_d posts { inputs } to the endpoint URL itself', async () => {
    await new HuggingFaceEmbedder({ baseUrl: emulator.baseUrls.provider_d, timeoutMs: 5_000, apiKey: 'hf_x' }).embed(['a', 'b']);
    expect(emulator.requests.at(-1)).toMatchObject({ method: 'POST', path: '/', body: { inputs: ['a', 'b'] } });
  });

  it('a provider answering vectors of another size than promised is an upstream failure', async () => {
    // The configured dimension equals the model's native one, so nothing asks the emulator for it, and
    // the emulator sizes this unknown model at its fallback of 384.
    const embedder = new HuggingFaceEmbedder({ baseUrl: emulator.baseUrls.provider_d, timeoutMs: 5_000, apiKey: 'hf_x', model: 'BAAI/bge-base-en-v1.5' });
    expect(embedder.dimension).toBe(768);
    const error = await embedder.embed(['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as Error).message).toBe('provider_d failed: returned 384-dimensional vectors, expected 768');
  });
});
