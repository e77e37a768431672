import { ValidationError, type ErrorDetail } from '../../shared/errors';
import { estimateTokens } from '../../shared/tokens';
import { sectionLabel, type ChunkLocation, type DocumentSection } from './document-section';
import { tidyWhitespace } from './parsed-text';

export interface Chunk {
  index: number;
  content: string;
  /** Provider-neutral estimate (`estimateTokens`), for budgeting retrieved context. */
  tokenCount: number;
}

/** Sizes are in characters (UTF-16 code units, as `String.length` counts them), not tokens. */
export interface ChunkOptions {
  chunkSize?: number;
  chunkOverlap?: number;
}

export const DEFAULT_CHUNK_SIZE = 1000;
export const DEFAULT_CHUNK_OVERLAP = 200;
export const MIN_CHUNK_SIZE = 100;
export const MAX_CHUNK_SIZE = 8000;

/** Options with defaults applied; ValidationError naming `chunkSize` / `chunkOverlap` when out of range. */
export function validateChunkOptions(options: ChunkOptions = {}): Required<ChunkOptions> {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const chunkOverlap = options.chunkOverlap ?? DEFAULT_CHUNK_OVERLAP;
  const details: ErrorDetail[] = [];
  const sizeValid = Number.isInteger(chunkSize) && chunkSize >= MIN_CHUNK_SIZE && chunkSize <= MAX_CHUNK_SIZE;
  if (!sizeValid) {
    details.push({ path: 'chunkSize', message: `chunkSize must be an integer from ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE}` });
  }
  const maxOverlap = sizeValid ? Math.floor(chunkSize / 2) : undefined;
  if (!Number.isInteger(chunkOverlap) || chunkOverlap < 0 || (maxOverlap !== undefined && chunkOverlap > maxOverlap)) {
    const range = maxOverlap === undefined ? 'at most half of chunkSize' : `from 0 to ${maxOverlap} (half of chunkSize)`;
    details.push({ path: 'chunkOverlap', message: `chunkOverlap must be an integer ${range}` });
  }
  if (details.length > 0) throw new ValidationError(details.map((d) => d.message).join('; '), details);
  return { chunkSize, chunkOverlap };
}

/** A chunk with its place in the document. */
export type LocatedChunk = Chunk & ChunkLocation;

/**
 * Chunks that follow a document's structure: each section (a heading's text, a PDF page) is cut on its
 * own, by `chunkText`, so no chunk runs from one section or page into the next, and every chunk carries
 * its page and heading path. Neighbouring sections of the same place are joined first; empty ones vanish.
 */
export function chunkSections(sections: readonly DocumentSection[], options?: ChunkOptions): LocatedChunk[] {
  const settings = validateChunkOptions(options);
  const runs: Array<{ text: string } & ChunkLocation> = [];
  // A heading followed at once by a deeper one has no text of its own: it leads the next section's text.
  let carried = '';
  for (const [i, s] of sections.entries()) {
    if (s.text.trim() === '') continue;
    const headingOnly = s.text.replace(/^#{1,6}\s+/, '').trim() === (s.headings?.at(-1) ?? '').trim();
    if (headingOnly && i + 1 < sections.length && sections[i + 1]!.page === s.page) {
      carried += `${s.text.trim()}\n\n`;
      continue;
    }
    const text = carried + s.text;
    carried = '';
    const location = { page: s.page ?? null, section: sectionLabel(s.headings) };
    const last = runs[runs.length - 1];
    if (last && last.page === location.page && last.section === location.section) last.text += `\n\n${text}`;
    else runs.push({ text, ...location });
  }
  const chunks: LocatedChunk[] = [];
  for (const run of runs) {
    for (const c of chunkText(run.text, settings)) chunks.push({ ...c, index: chunks.length, page: run.page, section: run.section });
  }
  return chunks;
}

/** Line ends become `\n`, then whitespace is tidied as parsed documents are (see `tidyWhitespace`). */
export function normalizeWhitespace(text: string): string {
  return tidyWhitespace(text.replace(/\r\n?/g, '\n'));
}

/**
 * Splits text into chunks of at most `chunkSize` characters, each sharing up to `chunkOverlap` characters
 * with the one before. Cuts prefer a paragraph break, then a sentence end, then a space, searched in the
 * last part of the window; a word longer than that is cut hard. Every character of the normalized text
 * lands in some chunk. Linear: each window is scanned once and windows advance by at least a quarter size.
 */
export function chunkText(text: string, options?: ChunkOptions): Chunk[] {
  const { chunkSize, chunkOverlap } = validateChunkOptions(options);
  const normalized = normalizeWhitespace(text);
  const chunks: Chunk[] = [];
  // A cut is looked for no earlier than this, so every step moves forward by a quarter of the size at least.
  const minLength = Math.max(Math.floor(chunkSize / 2), chunkOverlap + Math.floor(chunkSize / 4));
  let start = 0;
  while (start < normalized.length) {
    const end = start + chunkSize >= normalized.length
      ? normalized.length
      : findCut(normalized, start + minLength, start + chunkSize);
    const content = normalized.slice(start, end).trim();
    if (content !== '') chunks.push({ index: chunks.length, content, tokenCount: estimateTokens(content) });
    if (end >= normalized.length) break;
    start = overlapStart(normalized, end, chunkOverlap);
  }
  return chunks;
}

const isSpace = (code: number): boolean => code === 32 || code === 10;
const isSentenceEnd = (code: number): boolean => code === 46 || code === 33 || code === 63; // . ! ?
const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * The best cut in (min, max], as an exclusive end just after the break: the last paragraph break, else the
 * last sentence end, else the last line break, else the last space.
 */
function findCut(text: string, min: number, max: number): number {
  let sentence = -1;
  let line = -1;
  let space = -1;
  // One backward pass over the window records the latest cut of each kind.
  for (let i = max; i > min; i--) {
    const c = text.charCodeAt(i - 1);
    if (c !== 10 && c !== 32) continue;
    const before = text.charCodeAt(i - 2);
    if (c === 10 && before === 10) return i;
    if (sentence === -1 && isSentenceEnd(before)) sentence = i;
    if (c === 10 && line === -1) line = i;
    if (space === -1) space = i;
  }
  const best = [sentence, line, space].find((cut) => cut !== -1);
  if (best !== undefined) return best;
  // No break at all: cut hard, but never between the two halves of a surrogate pair.
  return isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
}

/** Where the next chunk starts: `overlap` characters back, moved forward to the start of a word. */
function overlapStart(text: string, end: number, overlap: number): number {
  if (overlap === 0) return skipSpaces(text, end);
  let start = end - overlap;
  if (start > 0 && !isSpace(text.charCodeAt(start - 1))) {
    let j = start;
    while (j < end && !isSpace(text.charCodeAt(j))) j++;
    // A single word fills the whole overlap: carry it from mid-word rather than carry nothing.
    if (j < end) start = j;
  }
  start = skipSpaces(text, start);
  if (start >= end) return skipSpaces(text, end);
  return isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start;
}

function skipSpaces(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}
