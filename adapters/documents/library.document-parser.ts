import type { BinaryFormat, MarkupFormat } from '../../core/knowledge/domain/document-format';
import type { DocumentSection } from '../../core/knowledge/domain/document-section';
import { tidyWhitespace } from '../../core/knowledge/domain/parsed-text';
import type { DocumentParser } from '../../core/knowledge/ports/document-parser.port';
import { csvToText } from './csv-text';
import { docxToSections } from './docx-text';
import { htmlToSections } from './html-text';
import { jsonToText } from './json-text';
import { markdownToSections } from './markdown-sections';
import { DEFAULT_PDF_LIMITS, pdfToSections, type PdfLimits } from './pdf-text';
import { xmlToText } from './xml-text';

const TEXT: Readonly<Record<MarkupFormat, (source: string) => DocumentSection[]>> = {
  md: markdownToSections,
  json: (source) => [{ text: jsonToText(source) }],
  csv: (source) => [{ text: csvToText(source) }],
  html: (source) => htmlToSections(source),
  xml: (source) => [{ text: tidyWhitespace(xmlToText(source)) }],
};

/**
 * The knowledge base's document parser on kept libraries: markdown-it, htmlparser2, fast-xml-parser,
 * csv-parse (and JSON.parse) for text; pdfjs-dist for PDF, mammoth (after a yauzl check) for DOCX.
 */
export class LibraryDocumentParser implements DocumentParser {
  constructor(private readonly pdfLimits: PdfLimits = DEFAULT_PDF_LIMITS) {}

  parseText(format: MarkupFormat, source: string): DocumentSection[] {
    return TEXT[format](source);
  }

  parseBinary(format: BinaryFormat, bytes: Buffer): Promise<DocumentSection[]> {
    return format === 'pdf' ? pdfToSections(bytes, this.pdfLimits) : docxToSections(bytes);
  }
}
