/**
 * Character references of HTML and XML, decoded in a single pass: the result is never decoded again,
 * so `&amp;lt;` reads `&lt;`, and nothing is ever expanded beyond one character per reference.
 */

/** The five entities XML predefines; an XML document may define no others here (DOCTYPE is refused). */
const XML_ENTITIES: Readonly<Record<string, number>> = { amp: 38, lt: 60, gt: 62, quot: 34, apos: 39 };

// HTML's Latin-1 entities name the code points 160..255 in order.
const LATIN_1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute ' +
  'micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig ' +
  'Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash ' +
  'Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc ' +
  'euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml ' +
  'yacute thorn yuml';

// Greek letters: capitals from 913 (930 is unassigned), small letters from 945 (962 is the final sigma).
const GREEK = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho';
const GREEK_TAIL = 'sigma tau upsilon phi chi psi omega';

const OTHER_HTML: Readonly<Record<string, number>> = {
  OElig: 338, oelig: 339, Scaron: 352, scaron: 353, Yuml: 376, fnof: 402, circ: 710, tilde: 732,
  ensp: 8194, emsp: 8195, thinsp: 8201, zwnj: 8204, zwj: 8205, lrm: 8206, rlm: 8207,
  ndash: 8211, mdash: 8212, lsquo: 8216, rsquo: 8217, sbquo: 8218, ldquo: 8220, rdquo: 8221, bdquo: 8222,
  dagger: 8224, Dagger: 8225, bull: 8226, hellip: 8230, permil: 8240, prime: 8242, Prime: 8243,
  lsaquo: 8249, rsaquo: 8250, oline: 8254, frasl: 8260, euro: 8364, trade: 8482,
  larr: 8592, uarr: 8593, rarr: 8594, darr: 8595, harr: 8596, minus: 8722, infin: 8734,
  asymp: 8776, ne: 8800, le: 8804, ge: 8805, sigmaf: 962,
};

const HTML_ENTITIES: ReadonlyMap<string, number> = buildHtmlEntities();

function buildHtmlEntities(): Map<string, number> {
  const map = new Map<string, number>(Object.entries(XML_ENTITIES));
  LATIN_1.split(' ').forEach((name, i) => map.set(name, 160 + i));
  const greek = (names: string, capitalFrom: number, smallFrom: number): void =>
    names.split(' ').forEach((name, i) => {
      map.set(name[0]!.toUpperCase() + name.slice(1), capitalFrom + i);
      map.set(name, smallFrom + i);
    });
  greek(GREEK, 913, 945);
  greek(GREEK_TAIL, 931, 963);
  for (const [name, code] of Object.entries(OTHER_HTML)) map.set(name, code);
  return map;
}

const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|([A-Za-z][A-Za-z0-9]{0,31}));/g;
const REPLACEMENT = '\uFFFD';

/** A numeric reference as a string; NUL, surrogates and values past Unicode become U+FFFD. */
function fromCodePoint(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return REPLACEMENT;
  return String.fromCodePoint(code);
}

function decodeWith(text: string, named: (name: string) => number | undefined): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (decimal !== undefined) return fromCodePoint(Number.parseInt(decimal, 10));
    if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
    const code = named(name!);
    // Unknown names stay as written: they are text, not something to guess at.
    return code === undefined ? whole : String.fromCodePoint(code);
  });
}

/** HTML text: numeric references and the common named entities. */
export function decodeHtmlEntities(text: string): string {
  return decodeWith(text, (name) => HTML_ENTITIES.get(name));
}

/** XML text: numeric references and the five predefined entities, nothing else. */
export function decodeXmlEntities(text: string): string {
  return decodeWith(text, (name) => (Object.hasOwn(XML_ENTITIES, name) ? XML_ENTITIES[name] : undefined));
}
