import { Parser } from 'htmlparser2';
import type { DocumentSection } from '../../core/knowledge/domain/document-section';
import { tidyWhitespace } from '../../core/knowledge/domain/parsed-text';

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

  /** The text so far, emptied: a section ends here. */
  cut(): string {
    const text = this.parts.join('');
    this.parts.length = 0;
    this.pendingBreaks = 0;
    return text;
  }
}

const HEADING = /^h([1-6])$/;

export interface HtmlSectionOptions {
  /** Between the cells of a table row (a space by default; DOCX tables use " | " to keep columns apart). */
  cellSeparator?: string;
  /** Start list items with "- " (DOCX lists). */
  listMarkers?: boolean;
}

/**
 * The readable text of an HTML document in sections: a new one starts at every h1-h6, under the path of
 * the headings above it (an h2 after an h3 closes the h3), and holds its heading as its first line.
 */
export function htmlToSections(html: string, options: HtmlSectionOptions = {}): DocumentSection[] {
  const out = new TextSink();
  const sections: DocumentSection[] = [];
  const levels: string[] = [];
  let heading: { level: number; parts: string[] } | null = null;
  let cellsInRow = 0;
  // Paragraphs inside a table cell (how Word writes every cell) stay on the row's line.
  let cellDepth = 0;
  const flush = () => {
    const text = tidyWhitespace(out.cut());
    if (text !== '') sections.push({ text, headings: levels.filter((h) => h !== '') });
  };
  const parser = new Parser(
    {
      onopentag(name) {
        const level = HEADING.exec(name);
        if (level && out.hiddenDepth === 0 && !heading) {
          flush();
          heading = { level: Number(level[1]), parts: [] };
        }
        if (HIDDEN.has(name)) out.hiddenDepth += 1;
        else if (name === 'br') out.lineBreak();
        else if (CELL.has(name) && options.cellSeparator !== undefined) {
          if (cellsInRow++ > 0) out.text(options.cellSeparator);
        } else if (!(cellDepth > 0 && name === 'p')) separate(out, name, 1);
        if (CELL.has(name)) cellDepth += 1;
        if (name === 'tr') cellsInRow = 0;
        if (name === 'li' && options.listMarkers) out.text('- ');
      },
      onclosetag(name) {
        if (HIDDEN.has(name)) {
          out.hiddenDepth = Math.max(0, out.hiddenDepth - 1);
          out.block(1);
        } else if (CELL.has(name)) {
          cellDepth = Math.max(0, cellDepth - 1);
        } else if (name !== 'br' && !(cellDepth > 0 && name === 'p')) {
          separate(out, name, -1);
        }
        const level = HEADING.exec(name);
        if (level && heading && Number(level[1]) === heading.level) {
          const text = heading.parts.join('').replace(/\s+/g, ' ').trim();
          levels.length = Math.min(levels.length, heading.level - 1);
          while (levels.length < heading.level - 1) levels.push('');
          levels.push(text);
          heading = null;
        }
      },
      ontext(text) {
        if (heading && out.hiddenDepth === 0) heading.parts.push(text);
        out.text(text);
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.end(html);
  flush();
  return sections;
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
