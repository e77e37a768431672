import { ValidationError } from '../../shared/errors';
import { decodeDocumentText, formatOf, isStructured, type ParsedDocument } from '../domain/document-format';
import type { DocumentParser } from '../ports/document-parser.port';

/**
 * The readable text of a knowledge-base document. The extension decides the format; the content must be
 * UTF-8 text. Plain text and Markdown are kept as written, the other formats go through the parser.
 * Throws UnsupportedMediaTypeError for other files, ValidationError for empty or malformed ones.
 */
export function readDocument(parser: DocumentParser, bytes: Buffer, fileName: string): ParsedDocument {
  const format = formatOf(fileName);
  const source = decodeDocumentText(bytes);
  const text = isStructured(format) ? parser.toText(format, source) : source;
  if (text.trim() === '') throw new ValidationError('The document has no text');
  return { text, format };
}
