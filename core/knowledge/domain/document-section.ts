import type { DocumentFormat } from './document-format';

/**
 * A run of a document's text under one heading path on one page: what a parser hands the chunker, which
 * never lets a chunk cross from one section (or page) into the next.
 */
export interface DocumentSection {
  text: string;
  /** 1-based page of a paginated format (PDF); absent for the others. */
  page?: number;
  /** Headings above the text, outermost first (`['Setup', 'Linux']`); empty before the first heading. */
  headings?: string[];
}

export interface ParsedDocument {
  format: DocumentFormat;
  sections: DocumentSection[];
}

/** Where a chunk sits, as search hits and answers' sources show it. */
export interface ChunkLocation {
  page: number | null;
  /** The heading path joined with " > ", or null before the first heading and in documents without any. */
  section: string | null;
}

export const SECTION_SEPARATOR = ' > ';

/** Heading texts on one line each, joined into the path a citation shows; null when there is none. */
export function sectionLabel(headings: readonly string[] | undefined): string | null {
  const parts = (headings ?? []).map((h) => h.replace(/\s+/g, ' ').trim()).filter((h) => h !== '');
  if (parts.length === 0) return null;
  return parts.join(SECTION_SEPARATOR).slice(0, 500);
}

/** "handbook.pdf, p. 12, Leave > Sick leave": how a citation names its place. */
export function citationOf(fileName: string, location: ChunkLocation): string {
  return [fileName, location.page === null ? null : `p. ${location.page}`, location.section].filter((p) => p !== null).join(', ');
}
