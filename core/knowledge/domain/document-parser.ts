import { isUtf8 } from 'node:buffer';
import { UnsupportedMediaTypeError, ValidationError } from '../../shared/errors';
import { csvToText } from './csv-to-text';
import { htmlToText } from './html-to-text';
import { jsonToText } from './json-to-text';
import { tidyWhitespace } from './parsed-text';
import { xmlToText } from './xml-to-text';

export type DocumentFormat = 'txt' | 'md' | 'json' | 'csv' | 'html' | 'xml';

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

const TO_TEXT: Record<DocumentFormat, (source: string) => string> = {
  txt: (source) => source,
  md: (source) => source,
  json: jsonToText,
  csv: csvToText,
  html: (source) => tidyWhitespace(htmlToText(source)),
  xml: (source) => tidyWhitespace(xmlToText(source)),
};

/**
 * The readable text of a knowledge-base document. The extension decides the format; the content must be
 * UTF-8 text. Throws UnsupportedMediaTypeError for other files, ValidationError for empty or malformed ones.
 */
export function parseDocument(bytes: Buffer, fileName: string): ParsedDocument {
  const format = formatOf(fileName);
  if (bytes.includes(0) || !isUtf8(bytes)) throw new UnsupportedMediaTypeError('The document is not UTF-8 text');
  const source = bytes.toString('utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const text = TO_TEXT[format](source);
  if (text.trim() === '') throw new ValidationError('The document has no text');
  return { text, format };
}

function formatOf(fileName: string): DocumentFormat {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot).toLowerCase() : '';
  const format = Object.hasOwn(DOCUMENT_FORMATS, extension) ? DOCUMENT_FORMATS[extension] : undefined;
  if (!format) {
    throw new UnsupportedMediaTypeError(`Unsupported document type; supported: ${Object.keys(DOCUMENT_FORMATS).join(', ')}`);
  }
  return format;
}
