import { ValidationError } from '../../shared/errors';

/**
 * Parsed text may be longer than its source (CSV repeats its headers on every row, JSON repeats paths).
 * This bound keeps a hostile 10 MB file from growing into gigabytes of text.
 */
export const MAX_PARSED_TEXT_CHARS = 32 * 1024 * 1024;

/** Collects output lines and refuses to grow past `MAX_PARSED_TEXT_CHARS`. */
export class TextBuilder {
  private readonly lines: string[] = [];
  private length = 0;

  constructor(private readonly limit = MAX_PARSED_TEXT_CHARS) {}

  push(line: string): void {
    this.length += line.length + 1;
    if (this.length > this.limit) throw new ValidationError('The document is too large once parsed');
    this.lines.push(line);
  }

  toString(): string {
    return this.lines.join('\n');
  }
}

/**
 * Markup leaves ragged whitespace behind: runs of spaces become one, lines are trimmed, and a blank line
 * (a paragraph break, which the chunker prefers to cut at) is the most vertical space kept. The
 * patterns skip what is already tidy (a single space, a bare line break), so plain prose costs little.
 */
export function tidyWhitespace(text: string): string {
  return text
    .replace(/[^\S\n]{2,}|[^\S\n ]/g, ' ')
    .replace(/ \n ?|\n /g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
