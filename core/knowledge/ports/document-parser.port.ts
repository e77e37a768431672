import type { StructuredFormat } from '../domain/document-format';

/**
 * Reads the text of a structured knowledge-base document (SPEC 2.11): JSON, CSV, HTML and XML. The
 * adapter stands on kept parsing libraries; the core decides which files are taken and what counts as text.
 */
export interface DocumentParser {
  /**
   * The readable text of `source` (already UTF-8 decoded, without a byte order mark, `\n` line ends), as
   * paragraphs the chunker can cut at. Throws ValidationError for a malformed or refused document (an XML
   * DOCTYPE, say) and for one whose text would grow past `MAX_PARSED_TEXT_CHARS`.
   */
  toText(format: StructuredFormat, source: string): string;
}
