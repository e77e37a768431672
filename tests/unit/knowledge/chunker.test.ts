import { ValidationError } from '../../../core/shared/errors';
import { chunkText, normalizeWhitespace, validateChunkOptions, type Chunk } from '../../../core/knowledge/domain/chunker';
import { estimateTokens } from '../../../core/shared/tokens';

/** Distinct words, so each chunk sits at exactly one place in the text. */
function numberedText(words: number, shape: (i: number) => string = () => ' '): string {
  return Array.from({ length: words }, (_, i) => `word${i}${shape(i)}`).join('').trim();
}

/** Where each chunk sits in the normalized text; fails if a chunk is not a slice of it, in order. */
function positions(text: string, chunks: Chunk[]): { start: number; end: number }[] {
  const normalized = normalizeWhitespace(text);
  let from = 0;
  return chunks.map((chunk) => {
    const start = normalized.indexOf(chunk.content, from);
    expect(start).toBeGreaterThanOrEqual(0);
    from = start + 1;
    return { start, end: start + chunk.content.length };
  });
}

/** Every non-space character of the normalized text lies inside some chunk. */
function expectNothingLost(text: string, chunks: Chunk[]): void {
  const normalized = normalizeWhitespace(text);
  const spans = positions(text, chunks);
  let covered = 0;
  for (const { start, end } of spans) {
    expect(normalized.slice(covered, start).trim()).toBe('');
    covered = Math.max(covered, end);
  }
  expect(normalized.slice(covered).trim()).toBe('');
}

describe('chunkText', () => {
  it('returns no chunks for empty or blank text', () => {
    expect(chunkText('')).toEqual([]);
    expect(chunkText(' \n\t \r\n ')).toEqual([]);
  });

  it('keeps a short text whole, with its index and token estimate', () => {
    expect(chunkText('  Hello   world.\r\n\r\n\r\nSecond\tparagraph.  ')).toEqual([
      { index: 0, content: 'Hello world.\n\nSecond paragraph.', tokenCount: estimateTokens('Hello world.\n\nSecond paragraph.') },
    ]);
  });

  it('normalizes whitespace runs and keeps at most one blank line', () => {
    expect(normalizeWhitespace(' a \t b \r\n c\n\n\n\n d ')).toBe('a b\nc\n\nd');
  });

  it('never makes a chunk longer than chunkSize and numbers chunks in order', () => {
    const text = numberedText(3000);
    const chunks = chunkText(text, { chunkSize: 500, chunkOverlap: 100 });
    expect(chunks.length).toBeGreaterThan(10);
    chunks.forEach((chunk, i) => {
      expect(chunk.index).toBe(i);
      expect(chunk.content.length).toBeLessThanOrEqual(500);
      expect(chunk.tokenCount).toBe(estimateTokens(chunk.content));
    });
  });

  it('loses no text, with or without overlap', () => {
    const text = numberedText(5000, (i) => (i % 97 === 0 ? '\n\n' : i % 13 === 0 ? '. ' : i % 7 === 0 ? '\n' : ' '));
    for (const options of [{}, { chunkSize: 100, chunkOverlap: 0 }, { chunkSize: 100, chunkOverlap: 50 }, { chunkSize: 8000, chunkOverlap: 4000 }]) {
      expectNothingLost(text, chunkText(text, options));
    }
  });

  it('carries the overlap: each chunk starts with text from the end of the one before', () => {
    const text = numberedText(2000);
    const chunks = chunkText(text, { chunkSize: 400, chunkOverlap: 100 });
    const spans = positions(text, chunks);
    for (let i = 1; i < spans.length; i++) {
      const overlap = spans[i - 1]!.end - spans[i]!.start;
      expect(overlap).toBeGreaterThan(50);
      expect(overlap).toBeLessThanOrEqual(100);
      // The overlap starts at a word, never in the middle of one.
      expect(chunks[i]!.content).toMatch(/^word\d+/);
      expect(chunks[i - 1]!.content).toContain(chunks[i]!.content.split(' ')[0]);
    }
  });

  it('does not overlap when chunkOverlap is 0', () => {
    const text = numberedText(2000);
    const spans = positions(text, chunkText(text, { chunkSize: 300, chunkOverlap: 0 }));
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end);
  });

  it('cuts at a paragraph break when there is one in the window', () => {
    const paragraph = (n: number) => `Paragraph ${n} talks. It has two sentences and some filler words to fill it.`;
    const text = Array.from({ length: 12 }, (_, n) => paragraph(n)).join('\n\n');
    const chunks = chunkText(text, { chunkSize: 200, chunkOverlap: 0 });
    for (const chunk of chunks) expect(chunk.content).toMatch(/^Paragraph \d+ talks\..*fill it\.$/s);
  });

  it('cuts after a sentence when no paragraph break fits', () => {
    const text = Array.from({ length: 40 }, (_, n) => `Sentence number ${n} says something short.`).join(' ');
    const chunks = chunkText(text, { chunkSize: 150, chunkOverlap: 0 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.content).toMatch(/^Sentence number \d+/);
      expect(chunk.content).toMatch(/short\.$/);
    }
  });

  it('cuts between words when a sentence is longer than the window', () => {
    const text = numberedText(400);
    for (const chunk of chunkText(text, { chunkSize: 120, chunkOverlap: 0 })) {
      expect(chunk.content).toMatch(/^word\d+( word\d+)*$/);
    }
  });

  it('cuts a single endless word hard, and never splits a surrogate pair', () => {
    const long = 'x'.repeat(2500);
    const chunks = chunkText(long, { chunkSize: 1000, chunkOverlap: 0 });
    expect(chunks.map((c) => c.content.length)).toEqual([1000, 1000, 500]);
    expect(chunks.map((c) => c.content).join('')).toBe(long);

    const emoji = '😀'.repeat(300);
    const pieces = chunkText(emoji, { chunkSize: 101, chunkOverlap: 0 });
    expect(pieces.map((c) => c.content).join('')).toBe(emoji);
    for (const piece of pieces) expect(piece.content).toMatch(/^(?:😀)+$/u);
  });

  it('carries overlap from inside a word when one word fills the whole overlap window', () => {
    const chunks = chunkText('y'.repeat(1500), { chunkSize: 1000, chunkOverlap: 200 });
    expect(chunks.map((c) => c.content.length)).toEqual([1000, 700]);
  });
});

describe('validateChunkOptions', () => {
  it('applies the defaults: 1000 characters with 200 of overlap', () => {
    expect(validateChunkOptions()).toEqual({ chunkSize: 1000, chunkOverlap: 200 });
    expect(validateChunkOptions({ chunkSize: 100, chunkOverlap: 50 })).toEqual({ chunkSize: 100, chunkOverlap: 50 });
    expect(validateChunkOptions({ chunkSize: 8000, chunkOverlap: 0 })).toEqual({ chunkSize: 8000, chunkOverlap: 0 });
  });

  function failure(options: { chunkSize?: number; chunkOverlap?: number }): ValidationError {
    try {
      validateChunkOptions(options);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return error as ValidationError;
    }
    throw new Error('expected a validation error');
  }

  it.each([99, 8001, 500.5, Number.NaN, -1])('refuses chunkSize %p, naming chunkSize', (chunkSize) => {
    const error = failure({ chunkSize, chunkOverlap: 0 });
    expect(error.details.map((d) => d.path)).toEqual(['chunkSize']);
    expect(error.message).toContain('chunkSize');
  });

  it.each([-1, 501, 10.5])('refuses chunkOverlap %p with a chunkSize of 1000, naming chunkOverlap', (chunkOverlap) => {
    const error = failure({ chunkSize: 1000, chunkOverlap });
    expect(error.details.map((d) => d.path)).toEqual(['chunkOverlap']);
    expect(error.message).toContain('chunkOverlap');
  });

  it('refuses an overlap above half the size and reports both fields when both are wrong', () => {
    expect(failure({ chunkSize: 200, chunkOverlap: 101 }).message).toBe('chunkOverlap must be an integer from 0 to 100 (half of chunkSize)');
    expect(failure({ chunkSize: 50, chunkOverlap: -5 }).details.map((d) => d.path)).toEqual(['chunkSize', 'chunkOverlap']);
  });

  it('is applied by chunkText', () => {
    expect(() => chunkText('text', { chunkSize: 10 })).toThrow(ValidationError);
  });
});
