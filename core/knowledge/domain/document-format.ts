import { isUtf8 } from 'node:buffer';
import { UnsupportedMediaTypeError } from '../../shared/errors';

export type DocumentFormat = 'txt' | 'md' | 'json' | 'csv' | 'html' | 'xml' | 'pdf' | 'docx';

/** Binary formats: read from their bytes by the `DocumentParser`, never decoded as text. */
export type BinaryFormat = 'pdf' | 'docx';

/** Text formats whose structure (headings, markup) the `DocumentParser` reads; plain text needs none. */
export type MarkupFormat = Exclude<DocumentFormat, 'txt' | BinaryFormat>;

/** SPEC 2.11: the files a knowledge base takes, by extension. */
export const DOCUMENT_FORMATS: Readonly<Record<string, DocumentFormat>> = {
  '.txt': 'txt',
  '.md': 'md',
  '.markdown': 'md',
  '.json': 'json',
  '.csv': 'csv',
  '.html': 'html',
  '.htm': 'html',
  '.xml': 'xml',
  '.pdf': 'pdf',
  '.docx': 'docx',
};

/** Extensions refused with a reason of their own rather than "unsupported". */
const REFUSED: Readonly<Record<string, string>> = {
  '.docm': 'Macro-enabled Word documents (.docm) are not accepted; save the document as .docx without macros',
  '.dotm': 'Macro-enabled Word templates (.dotm) are not accepted; save the document as .docx without macros',
  '.doc': 'Word 97-2003 documents (.doc) are not supported; save the document as .docx',
};

export const isBinary = (format: DocumentFormat): format is BinaryFormat => format === 'pdf' || format === 'docx';

/** The format a file name's extension (case-insensitive) names; UnsupportedMediaTypeError for any other. */
export function formatOf(fileName: string): DocumentFormat {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot).toLowerCase() : '';
  if (Object.hasOwn(REFUSED, extension)) throw new UnsupportedMediaTypeError(REFUSED[extension]!);
  const format = Object.hasOwn(DOCUMENT_FORMATS, extension) ? DOCUMENT_FORMATS[extension] : undefined;
  if (!format) {
    throw new UnsupportedMediaTypeError(`Unsupported document type; supported: ${Object.keys(DOCUMENT_FORMATS).join(', ')}`);
  }
  return format;
}

/**
 * A document's bytes as text: UTF-8 only (NUL bytes refused, they mark binary files), without a byte
 * order mark, with `\n` line ends. UnsupportedMediaTypeError otherwise.
 */
export function decodeDocumentText(bytes: Buffer): string {
  if (bytes.includes(0) || !isUtf8(bytes)) throw new UnsupportedMediaTypeError('The document is not UTF-8 text');
  return bytes.toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}
