import { ValidationError } from '../../shared/errors';
import { decodeDocumentText, formatOf, isBinary } from '../domain/document-format';
import type { ParsedDocument } from '../domain/document-section';
import { MAX_PARSED_TEXT_CHARS } from '../domain/parsed-text';
import type { DocumentParser } from '../ports/document-parser.port';

/**
 * The readable text of a knowledge-base document, in sections with their place. The extension decides
 * the format; PDF and DOCX are read from their bytes, every other format must be UTF-8 text. Plain text
 * is kept as written, the other formats go through the parser. Throws UnsupportedMediaTypeError for
 * other files, ValidationError for empty or malformed ones and for text holding NUL characters (a JSON
 * document's `\u0000` escape included).
 */
export async function readDocument(parser: DocumentParser, bytes: Buffer, fileName: string): Promise<ParsedDocument> {
  const format = formatOf(fileName);
  let sections;
  if (isBinary(format)) {
    sections = await parser.parseBinary(format, bytes);
  } else {
    const source = decodeDocumentText(bytes);
    sections = format === 'txt' ? [{ text: source }] : parser.parseText(format, source);
  }
  let length = 0;
  for (const s of sections) {
    length += s.text.length;
    // PostgreSQL text cannot hold NUL; refused here, at upload, rather than failing the processing job later.
    if (s.text.includes('\u0000')) throw new ValidationError('The document contains NUL characters, which cannot be stored as text');
  }
  if (length > MAX_PARSED_TEXT_CHARS) throw new ValidationError('The document is too large once parsed');
  if (sections.every((s) => s.text.trim() === '')) throw new ValidationError('The document has no text');
  return { format, sections };
}
