import { isUtf8 } from 'node:buffer';
import { UnsupportedMediaTypeError } from '../../shared/errors';

export type DocumentFormat = 'txt' | 'md' | 'json' | 'csv' | 'html' | 'xml';

/** The formats read through a `DocumentParser`; plain text and Markdown are taken as written. */
export type StructuredFormat = Exclude<DocumentFormat, 'txt' | 'md'>;

export interface ParsedDocument {
  text: string;
  format: DocumentFormat;
}

/** SPEC 2.11: the text files a knowledge base takes, by extension. */
export const DOCUMENT_FORMATS: Readonly<Record<string, DocumentFormat>> = {
  '.txt': 'txt',
  '.md': 'md',
  '.markdown': 'md',
  '.json': 'json',
  '.csv': 'csv',
  '.html': 'html',
  '.htm': 'html',
  '.xml': 'xml',
};

export const isStructured = (format: DocumentFormat): format is StructuredFormat => format !== 'txt' && format !== 'md';

/** The format a file name's extension (case-insensitive) names; UnsupportedMediaTypeError for any other. */
export function formatOf(fileName: string): DocumentFormat {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot).toLowerCase() : '';
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
