import { Parser } from 'htmlparser2';

/**
 * The readable text of an HTML document, on htmlparser2 (a streaming tokenizer that follows the HTML
 * spec's entity decoding and raw-text elements): script, style, head and other hidden elements are
 * dropped with their content, comments and declarations never reach the text, block elements become
 * line breaks and table cells spaces.
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

/**
 * Collects text, holding line breaks back until text follows: `</li><li>` is one line break, not two,
 * and a run of block tags never piles up blank lines. Source line breaks are spaces, except in `<pre>`.
 */
class TextSink {
  private readonly parts: string[] = [];
  private pendingBreaks = 0;
  /** Open hidden elements: their text is dropped. */
  hiddenDepth = 0;
  preDepth = 0;

  text(decoded: string): void {
    if (this.hiddenDepth > 0) return;
    const text = this.preDepth > 0 ? decoded : decoded.replace(/\s{2,}|[^\S ]/g, ' ');
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
    if (this.hiddenDepth === 0) this.pendingBreaks = Math.min(2, this.pendingBreaks + 1);
  }

  toString(): string {
    return this.parts.join('');
  }
}

export function htmlToText(html: string): string {
  const out = new TextSink();
  const parser = new Parser(
    {
      onopentag(name) {
        if (HIDDEN.has(name)) out.hiddenDepth += 1;
        else if (name === 'br') out.lineBreak();
        else separate(out, name, 1);
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) {
          out.hiddenDepth = Math.max(0, out.hiddenDepth - 1);
          out.block(1);
        } else if (name !== 'br') {
          separate(out, name, -1);
        }
      },
      ontext(text) {
        out.text(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.end(html);
  return out.toString();
}

/** What an element's start (+1) or end (-1) does to the text around it. */
function separate(out: TextSink, name: string, step: 1 | -1): void {
  if (PARAGRAPH.has(name)) {
    out.block(2);
    if (name === 'pre') out.preDepth = Math.max(0, out.preDepth + step);
  } else if (LINE.has(name)) {
    out.block(1);
  } else if (CELL.has(name)) {
    out.text(' ');
  }
}
