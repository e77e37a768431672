import { CsvError, parse } from 'csv-parse/sync';
import { ValidationError } from '../../core/shared/errors';
import { TextBuilder } from '../../core/knowledge/domain/parsed-text';

const OPTIONS = {
  // Lenient where RFC 4180 is strict, so no text is ever dropped: bare quotes inside unquoted fields are
  // kept, rows may have more or fewer cells than the header, blank lines are records of one empty cell.
  relax_quotes: true,
  relax_column_count: true,
  skip_empty_lines: false,
} as const;

/** Records of an RFC 4180 CSV document, on csv-parse. An unterminated quote runs to the end of the file. */
export function parseCsv(text: string, quoteClosed = false): string[][] {
  try {
    return parse(text, OPTIONS) as string[][];
  } catch (error) {
    if (error instanceof CsvError && error.code === 'CSV_QUOTE_NOT_CLOSED' && !quoteClosed) {
      // The quote opened last is never closed: close it at the end, as a reader would take it.
      return parseCsv(`${text}"`, true);
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ValidationError(`The document is not valid CSV: ${reason}`);
  }
}

/** One line per data row, `header: value; header: value`, empty cells left out, blank rows skipped. */
export function csvToText(text: string): string {
  const rows = parseCsv(text)
    .map((row) => row.map(clean))
    .filter((row) => row.some((cell) => cell !== ''));
  const [headers, ...data] = rows;
  if (!headers) return '';
  const out = new TextBuilder();
  if (data.length === 0) {
    out.push(headers.filter((h) => h !== '').join('; '));
    return out.toString();
  }
  for (const row of data) {
    const parts: string[] = [];
    row.forEach((cell, column) => {
      if (cell !== '') parts.push(`${headers[column] || `column ${column + 1}`}: ${cell}`);
    });
    out.push(parts.join('; '));
  }
  return out.toString();
}

/** A cell on one line: embedded line breaks and runs of spaces become single spaces. */
function clean(cell: string): string {
  return cell.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}
