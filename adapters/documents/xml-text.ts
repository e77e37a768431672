import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ValidationError } from '../../core/shared/errors';

/**
 * The text content of an XML document, on fast-xml-parser. No DTD is ever read: a document with a
 * DOCTYPE or an entity declaration (where entity bombs and external entities live) is refused before the
 * parser sees it, so no entity beyond XML's five predefined ones and numeric references is ever expanded.
 */

/** Deeper documents are refused (the parser's own bound, stated here so the message can name it). */
export const MAX_XML_DEPTH = 100;

const DECLARATION = /<!\s*(doctype|entity|element|attlist|notation)/i;

/**
 * fast-xml-parser 5 takes an entity table in `htmlEntities` as well as a boolean: the table is the whole
 * set of named entities, and numeric character references are decoded with it. Its typings only name the
 * boolean, whose `true` would also decode HTML's names (`&copy;`), which XML does not define.
 */
const XML_ENTITIES_ONLY = { amp: '&', apos: "'", gt: '>', lt: '<', quot: '"' } as unknown as boolean;

const TEXT = '#text';
const CDATA = '#cdata';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  commentPropName: false,
  cdataPropName: CDATA,
  textNodeName: TEXT,
  trimValues: false,
  parseTagValue: false,
  processEntities: true,
  htmlEntities: XML_ENTITIES_ONLY,
  maxNestedTags: MAX_XML_DEPTH,
});

type XmlNode = Record<string, unknown>;

export function xmlToText(xml: string): string {
  if (DECLARATION.test(xml)) {
    throw new ValidationError('XML documents with a DOCTYPE or entity declarations are not accepted');
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new ValidationError(`The document is not well-formed XML (line ${line}, column ${col}): ${msg}`);
  }
  let nodes: XmlNode[];
  try {
    nodes = parser.parse(xml) as XmlNode[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`The XML document cannot be read: ${/nested/i.test(reason) ? `it is nested more than ${MAX_XML_DEPTH} levels deep` : reason}`);
  }
  const out: string[] = [];
  collect(nodes, out);
  return out.join('');
}

/** Text in document order: an element's start separates words, its end ends a field (a line). */
function collect(nodes: XmlNode[], out: string[]): void {
  for (const node of nodes) {
    for (const [name, value] of Object.entries(node)) {
      if (name === ':@') continue;
      if (name === TEXT) {
        out.push(String(value));
      } else if (name === CDATA) {
        // CDATA is literal text: its one child is the raw text, no entity decoded.
        for (const part of value as XmlNode[]) out.push(String(part[TEXT] ?? ''));
      } else if (name.startsWith('!')) {
        // A declaration the parser read as an element (`<!ENTITY` inside the document): never accepted.
        throw new ValidationError('XML documents with a DOCTYPE or entity declarations are not accepted');
      } else {
        out.push(' ');
        collect(value as XmlNode[], out);
        out.push('\n');
      }
    }
  }
}
