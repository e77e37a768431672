import type { StructuredFormat } from '../../core/knowledge/domain/document-format';
import { tidyWhitespace } from '../../core/knowledge/domain/parsed-text';
import type { DocumentParser } from '../../core/knowledge/ports/document-parser.port';
import { csvToText } from './csv-text';
import { htmlToText } from './html-text';
import { jsonToText } from './json-text';
import { xmlToText } from './xml-text';

const TO_TEXT: Readonly<Record<StructuredFormat, (source: string) => string>> = {
  json: jsonToText,
  csv: csvToText,
  html: (source) => tidyWhitespace(htmlToText(source)),
  xml: (source) => tidyWhitespace(xmlToText(source)),
};

/** The knowledge base's document parser on kept libraries: htmlparser2, fast-xml-parser, csv-parse (and JSON.parse). */
export class LibraryDocumentParser implements DocumentParser {
  toText(format: StructuredFormat, source: string): string {
    return TO_TEXT[format](source);
  }
}
