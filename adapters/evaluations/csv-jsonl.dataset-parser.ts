import { parse } from 'csv-parse';
import { Readable } from 'node:stream';
import secureJson from 'secure-json-parse';
import type { DatasetFileParser } from '../../core/evaluations/ports/evaluation-engines.port';
import { PayloadTooLargeError, ValidationError } from '../../core/shared/errors';

const MAX_CELL_CHARS = 200_000;

const tooManyRows = (max: number) => new PayloadTooLargeError(`The file has more than ${max} rows, the most a dataset can take`);

/**
 * Dataset files: CSV through csv-parse (a header row names the columns; streamed, and stopped as soon as a row past
 * the limit is read, so a file of 100 000 rows is refused without being held), and JSON Lines (one object a line,
 * parsed refusing `__proto__` and `constructor.prototype` keys). Rows are objects with the file's names as own keys.
 */
export class CsvJsonlDatasetParser implements DatasetFileParser {
  async parse(bytes: Buffer, format: 'csv' | 'jsonl', maxRows: number): Promise<Array<Record<string, unknown>>> {
    return format === 'csv' ? this.csv(bytes, maxRows) : this.jsonl(bytes, maxRows);
  }

  private async csv(bytes: Buffer, maxRows: number): Promise<Array<Record<string, unknown>>> {
    const parser = parse({ bom: true, skip_empty_lines: true, max_record_size: MAX_CELL_CHARS, relax_quotes: false });
    const source = Readable.from([bytes]);
    source.pipe(parser);
    let header: string[] | null = null;
    const rows: Array<Record<string, unknown>> = [];
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        if (!header) {
          header = record.map((h) => h.trim());
          if (!header.some((h) => ['input', 'message', 'question'].includes(h))) {
            throw ValidationError.field('file', 'The CSV needs a header row with an "input" column (and optionally "expected", "tags", "variables", "history")');
          }
          continue;
        }
        if (rows.length >= maxRows) throw tooManyRows(maxRows);
        rows.push(Object.fromEntries(header.map((h, i) => [h, record[i] ?? ''])));
      }
    } catch (error) {
      source.destroy();
      parser.destroy();
      if (error instanceof ValidationError || error instanceof PayloadTooLargeError) throw error;
      const message = error instanceof Error ? error.message.slice(0, 200) : 'unreadable';
      throw ValidationError.field('file', `The file is not well-formed CSV: ${message}`);
    }
    return rows;
  }

  private jsonl(bytes: Buffer, maxRows: number): Array<Record<string, unknown>> {
    const text = bytes.toString('utf8');
    const rows: Array<Record<string, unknown>> = [];
    let line = 0;
    for (const raw of text.split('\n')) {
      line++;
      if (raw.trim() === '') continue;
      if (rows.length >= maxRows) throw tooManyRows(maxRows);
      let value: unknown;
      try {
        value = secureJson.parse(raw, undefined, { protoAction: 'error', constructorAction: 'error' });
      } catch {
        throw ValidationError.field('file', `Line ${line} is not valid JSON`);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw ValidationError.field('file', `Line ${line} must be a JSON object`);
      rows.push(value as Record<string, unknown>);
    }
    return rows;
  }
}
