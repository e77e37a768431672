import { decodeHtmlEntities } from './markup-entities';

/**
 * The readable text of an HTML document, by a single forward scan (no regex backtracking, no DOM):
 * markup is dropped, script/style/head/comments with their content, block elements become line breaks.
 */

/** Elements whose content is never text for a reader. */
const HIDDEN = new Set(['script', 'style', 'head', 'noscript', 'template', 'svg', 'math', 'iframe', 'object']);

/** Elements that stand apart as paragraphs (a blank line around them). */
const PARAGRAPH = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dl', 'fieldset', 'figure', 'footer', 'form',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul',
]);

/** Elements that sit on their own line. */
const LINE = new Set([
  'body', 'caption', 'dd', 'dialog', 'div', 'dt', 'figcaption', 'html', 'label', 'legend', 'li', 'option',
  'select', 'summary', 'tbody', 'textarea', 'tfoot', 'thead', 'title', 'tr',
]);

/** Table cells separate their neighbours without ending the row. */
const CELL = new Set(['td', 'th']);

const TAG_NAME = /[A-Za-z][A-Za-z0-9:-]*/y;
const isAsciiLetter = (code: number): boolean => (code | 0x20) >= 97 && (code | 0x20) <= 122;

/**
 * Collects text, holding line breaks back until text follows: `</li><li>` is one line break, not two,
 * and a run of block tags never piles up blank lines. Source line breaks are spaces, except in `<pre>`.
 */
class TextSink {
  private readonly parts: string[] = [];
  private pendingBreaks = 0;
  preDepth = 0;

  text(raw: string): void {
    const text = decodeHtmlEntities(this.preDepth > 0 ? raw : raw.replace(/\s{2,}|[^\S ]/g, ' '));
    if (this.pendingBreaks > 0 && /\S/.test(text)) {
      this.parts.push('\n'.repeat(this.pendingBreaks));
      this.pendingBreaks = 0;
    }
    this.parts.push(text);
  }

  /** 1: a line break, 2: a paragraph break; breaks in a row keep the strongest. */
  block(level: 1 | 2): void {
    this.pendingBreaks = Math.max(this.pendingBreaks, level);
  }

  /** `<br>`: each one counts, up to a blank line. */
  lineBreak(): void {
    this.pendingBreaks = Math.min(2, this.pendingBreaks + 1);
  }

  toString(): string {
    return this.parts.join('');
  }
}

export function htmlToText(html: string): string {
  const out = new TextSink();
  const finder = new TagFinder(html);
  // Text runs from `textStart` to the next markup; a "<" that opens nothing ("a < b") stays in the run.
  let textStart = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) break;
    const next = html[lt + 1];
    const declaration = next === '!' || next === '?';
    const closing = next === '/';
    const nameAt = lt + (closing ? 2 : 1);
    TAG_NAME.lastIndex = nameAt;
    const match = declaration || !isAsciiLetter(html.charCodeAt(nameAt)) ? null : TAG_NAME.exec(html);
    if (!declaration && !match) {
      i = lt + 1;
      continue;
    }
    if (lt > textStart) out.text(html.slice(textStart, lt));
    if (!match) {
      // Comment, DOCTYPE, processing instruction, stray CDATA: markup, not text.
      i = html.startsWith('<!--', lt) ? after(html, '-->', lt + 4) : after(html, '>', lt + 2);
      textStart = i;
      continue;
    }
    const name = match[0].toLowerCase();
    const { end, selfClosing } = tagEnd(html, TAG_NAME.lastIndex);
    i = end;
    if (!closing && !selfClosing && HIDDEN.has(name)) {
      i = skipHidden(html, finder, name, i);
      out.block(1);
    } else if (name === 'br') {
      out.lineBreak();
    } else if (PARAGRAPH.has(name)) {
      out.block(2);
      if (name === 'pre' && !selfClosing) out.preDepth = Math.max(0, out.preDepth + (closing ? -1 : 1));
    } else if (LINE.has(name)) {
      out.block(1);
    } else if (CELL.has(name)) {
      out.text(' ');
    }
    textStart = i;
  }
  if (textStart < html.length) out.text(html.slice(textStart));
  return out.toString();
}

/** Index just past the next `token` from `from`, or the end of the input when it never comes. */
function after(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  return at === -1 ? text.length : at + token.length;
}

/** Index just past the `>` ending a tag, skipping `>` inside quoted attribute values. */
function tagEnd(html: string, from: number): { end: number; selfClosing: boolean } {
  let quote: string | undefined;
  for (let j = from; j < html.length; j++) {
    const c = html[j];
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return { end: j + 1, selfClosing: html[j - 1] === '/' };
    }
  }
  return { end: html.length, selfClosing: false };
}

/**
 * Finds `</name` (or `<body`) at or after a position. The scan only moves forward, so each answer is
 * remembered until the scan passes it: the whole document is searched at most once per pattern.
 */
class TagFinder {
  private readonly cache = new Map<string, number>();
  constructor(private readonly html: string) {}

  find(pattern: string, from: number): number {
    const known = this.cache.get(pattern);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const regex = new RegExp(`${pattern}(?=[\\s/>]|$)`, 'gi');
    regex.lastIndex = from;
    const at = regex.exec(this.html)?.index ?? -1;
    this.cache.set(pattern, at);
    return at;
  }
}

/**
 * Index past the end of a hidden element. An unclosed script or style hides the rest, as in a browser.
 * `<head>` often has no end tag: it then ends where `<body>` starts, or only the tag itself is dropped.
 */
function skipHidden(html: string, finder: TagFinder, name: string, from: number): number {
  const close = finder.find(`</${name}`, from);
  const endOfClose = (): number => tagEnd(html, close + 2 + name.length).end;
  if (name === 'head') {
    const body = finder.find('<body', from);
    if (close !== -1 && (body === -1 || close < body)) return endOfClose();
    return body === -1 ? from : body;
  }
  return close === -1 ? html.length : endOfClose();
}
