import type { StructuredFormat } from '../../../core/knowledge/domain/document-format';
import type { DocumentParser } from '../../../core/knowledge/ports/document-parser.port';
import { readDocument } from '../../../core/knowledge/use-cases/read-document';
import { UnsupportedMediaTypeError, ValidationError } from '../../../core/shared/errors';

/** A parser that records what the core hands it and answers what the test says. */
class RecordingParser implements DocumentParser {
  readonly calls: Array<{ format: StructuredFormat; source: string }> = [];
  constructor(private readonly answer: string) {}
  toText(format: StructuredFormat, source: string): string {
    this.calls.push({ format, source });
    return this.answer;
  }
}

describe('readDocument (core)', () => {
  it('takes plain text and Markdown as written, without the parser', () => {
    const parser = new RecordingParser('unused');
    expect(readDocument(parser, Buffer.from('\uFEFFa\r\nb'), 'n.txt')).toEqual({ text: 'a\nb', format: 'txt' });
    expect(readDocument(parser, Buffer.from('# T'), 'n.markdown')).toEqual({ text: '# T', format: 'md' });
    expect(parser.calls).toEqual([]);
  });

  it('hands structured formats to the parser decoded, without a byte order mark and with \\n line ends', () => {
    const parser = new RecordingParser('the text');
    expect(readDocument(parser, Buffer.from('\uFEFF<p>x</p>\r\n'), 'PAGE.HTM')).toEqual({ text: 'the text', format: 'html' });
    expect(readDocument(parser, Buffer.from('a,b\rc,d'), 'x.csv').format).toBe('csv');
    expect(parser.calls).toEqual([
      { format: 'html', source: '<p>x</p>\n' },
      { format: 'csv', source: 'a,b\nc,d' },
    ]);
  });

  it('refuses what the parser finds no text in, other extensions and bytes that are not UTF-8', () => {
    expect(() => readDocument(new RecordingParser(' \n'), Buffer.from('{}'), 'e.json')).toThrow(new ValidationError('The document has no text'));
    expect(() => readDocument(new RecordingParser('x'), Buffer.from('x'), 'x.pdf')).toThrow(UnsupportedMediaTypeError);
    expect(() => readDocument(new RecordingParser('x'), Buffer.from([0xff, 0xfe]), 'x.xml')).toThrow(UnsupportedMediaTypeError);
  });
});
