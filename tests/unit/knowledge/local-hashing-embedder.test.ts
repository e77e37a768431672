import { LocalHashingEmbedder } from '../../../adapters/embedders/local-hashing.embedder';
import { cosineSimilarity, norm } from '../../../core/knowledge/domain/vector-math';

describe('LocalHashingEmbedder', () => {
  const embedder = new LocalHashingEmbedder();

  it('names its model by its dimension, 384 by default', () => {
    expect(embedder.dimension).toBe(384);
    expect(embedder.model).toBe('local-hash-384');
    expect(new LocalHashingEmbedder(64).model).toBe('local-hash-64');
  });

  it('is deterministic: the same text gives the same vector, across instances', async () => {
    const text = 'Refunds are processed within five business days.';
    const [a] = await embedder.embed([text]);
    const [b] = await new LocalHashingEmbedder().embed([text]);
    expect(a).toEqual(b);
  });

  it('returns one L2-normalized vector of the right dimension per text, in order', async () => {
    const texts = ['first text', 'Second, longer text with more words in it.', 'ÜNICODE wörter und 数字 123'];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toHaveLength(384);
      expect(norm(v)).toBeCloseTo(1, 10);
    }
    expect(vectors[0]).toEqual((await embedder.embed(['first text']))[0]);
  });

  it('ignores case and punctuation', async () => {
    const [a, b] = await embedder.embed(['Hello, World!', 'hello world']);
    expect(cosineSimilarity(a!, b!)).toBeCloseTo(1, 10);
  });

  it('never returns the zero vector, even for empty input', async () => {
    const [empty, punctuation] = await embedder.embed(['', '  ?! ...  ']);
    expect(norm(empty!)).toBeCloseTo(1, 10);
    expect(empty).toEqual(punctuation);
  });

  it.each([
    ['How long does a refund take to process?', 'Refunds are usually processed within five business days of the request.', 'Our office cafeteria serves vegetarian lunch on Fridays.'],
    ['reset my password', 'To reset a forgotten password, open the login page and click the reset link.', 'The quarterly revenue grew by twelve percent.'],
    ['What is the capital of France?', 'Paris is the capital and largest city of France.', 'Photosynthesis converts light into chemical energy in plants.'],
  ])('ranks a related sentence above an unrelated one for %j', async (query, related, unrelated) => {
    const [q, r, u] = await embedder.embed([query, related, unrelated]);
    expect(cosineSimilarity(q!, r!)).toBeGreaterThan(cosineSimilarity(q!, u!));
  });

  it('sees word fragments through character trigrams', async () => {
    const [query, inflected, unrelated] = await embedder.embed(['configuring webhooks', 'webhook configuration guide', 'chocolate cake recipe']);
    expect(cosineSimilarity(query!, inflected!)).toBeGreaterThan(cosineSimilarity(query!, unrelated!));
  });

  it('weights repeated words sublinearly', async () => {
    const [once, many, other] = await embedder.embed(['cat dog', 'cat cat cat cat cat cat cat cat dog', 'dog']);
    // Eight cats do not drown the dog: the repeated-word text still resembles "dog" noticeably.
    expect(cosineSimilarity(many!, other!)).toBeGreaterThan(0.2);
    expect(cosineSimilarity(once!, many!)).toBeGreaterThan(cosineSimilarity(many!, other!));
  });

  it('refuses an unusable dimension and honours an aborted signal', async () => {
    expect(() => new LocalHashingEmbedder(0)).toThrow(RangeError);
    expect(() => new LocalHashingEmbedder(10.5)).toThrow(RangeError);
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(['x'], { signal: controller.signal })).rejects.toThrow();
  });
});
