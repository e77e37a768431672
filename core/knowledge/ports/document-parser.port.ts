import type { BinaryFormat, MarkupFormat } from '../domain/document-format';
import type { DocumentSection } from '../domain/document-section';

/**
 * Reads knowledge-base documents (SPEC 2.11) into sections of text with their place (page, heading
 * path). The adapter stands on kept parsing libraries; the core decides which files are taken and what
 * counts as text.
 */
export interface DocumentParser {
  /**
   * Markdown, JSON, CSV, HTML and XML from their text (already UTF-8 decoded, without a byte order mark,
   * `\n` line ends): paragraphs the chunker can cut at, split where headings start. Throws ValidationError
   * for a malformed or refused document (an XML DOCTYPE, say) and for one whose text would grow past
   * `MAX_PARSED_TEXT_CHARS`.
   */
  parseText(format: MarkupFormat, source: string): DocumentSection[];
  /**
   * PDF (one section per page, its text layer) and DOCX (headings, lists and tables kept as structure)
   * from their bytes. ValidationError, with a reason a user can act on, for an encrypted, image-only,
   * malformed or oversized document, a ZIP bomb or a document with macros.
   */
  parseBinary(format: BinaryFormat, bytes: Buffer): Promise<DocumentSection[]>;
}
