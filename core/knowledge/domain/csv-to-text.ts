import { TextBuilder } from './parsed-text';

/**
 * Records of an RFC 4180 CSV document: comma-separated fields, quoted fields may hold commas, line
 * breaks and doubled quotes. Lenient where the RFC is strict (bare quotes inside unquoted fields, text
 * after a closing quote, an unterminated quote running to the end), so no text is ever dropped.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  const endField = (): void => {
    record.push(field);
    field = '';
  };
  const endRecord = (): void => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === '') {
      // A quoted field (or a quoted part of one): read up to the closing quote, "" being a literal quote.
      let j = i + 1;
      for (;;) {
        const quote = text.indexOf('"', j);
        if (quote === -1) {
          field += text.slice(j);
          j = text.length;
          break;
        }
        field += text.slice(j, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          j = quote + 2;
        } else {
          j = quote + 1;
          break;
        }
      }
      i = j;
    } else if (c === ',') {
      endField();
      i += 1;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
    } else {
      const stop = nextSpecial(text, i);
      field += text.slice(i, stop);
      i = stop;
    }
  }
  if (field !== '' || record.length > 0) endRecord();
  return records;
}

/** Index of the next comma or line break at or after `from`; quotes inside an unquoted field are literal. */
function nextSpecial(text: string, from: number): number {
  for (let j = from; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 44 || c === 10 || c === 13) return j;
  }
  return text.length;
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
