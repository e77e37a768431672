import { ValidationError } from '../../shared/errors';
import { decodeXmlEntities } from './markup-entities';

/**
 * The text content of an XML document by a single forward scan. No DTD is ever read: a document with a
 * DOCTYPE (where entity bombs and external entities live) is refused before anything else happens.
 */
export function xmlToText(xml: string): string {
  if (/<!doctype/i.test(xml) || /<!entity/i.test(xml)) {
    throw new ValidationError('XML documents with a DOCTYPE or entity declarations are not accepted');
  }
  const out: string[] = [];
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) {
      out.push(decodeXmlEntities(xml.slice(i)));
      break;
    }
    if (lt > i) out.push(decodeXmlEntities(xml.slice(i, lt)));
    i = lt;

    if (xml.startsWith('<![CDATA[', i)) {
      // CDATA is literal text: no entity is decoded inside it.
      const end = xml.indexOf(']]>', i + 9);
      out.push(xml.slice(i + 9, end === -1 ? xml.length : end));
      i = end === -1 ? xml.length : end + 3;
    } else if (xml.startsWith('<!--', i)) {
      i = after(xml, '-->', i + 4);
    } else if (xml.startsWith('<?', i)) {
      i = after(xml, '?>', i + 2);
    } else if (!/[\p{L}_:/]/u.test(xml[i + 1] ?? '')) {
      // Not well-formed XML, but a lone "<" that opens no tag is text to a reader.
      out.push('<');
      i += 1;
    } else {
      const end = tagEnd(xml, i + 1);
      // A closing or empty tag ends a field; an opening tag only separates words.
      const endsElement = xml[i + 1] === '/' || xml[end - 2] === '/';
      out.push(endsElement ? '\n' : ' ');
      i = end;
    }
  }
  return out.join('');
}

function after(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  return at === -1 ? text.length : at + token.length;
}

/** Index just past the `>` ending a tag, skipping `>` inside quoted attribute values. */
function tagEnd(xml: string, from: number): number {
  let quote: string | undefined;
  for (let j = from; j < xml.length; j++) {
    const c = xml[j];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return j + 1;
    }
  }
  return xml.length;
}
