import type { BinaryFormat, MarkupFormat } from '../../../core/knowledge/domain/document-format';
import type { DocumentSection } from '../../../core/knowledge/domain/document-section';
import type { DocumentParser } from '../../../core/knowledge/ports/document-parser.port';
import { readDocument } from '../../../core/knowledge/use-cases/read-document';
import { UnsupportedMediaTypeError, ValidationError } from '../../../core/shared/errors';

/** A parser that records what the core hands it and answers what the test says. */
class RecordingParser implements DocumentParser {
  readonly calls: Array<{ format: MarkupFormat | BinaryFormat; source: string }> = [];
  constructor(private readonly answer: string) {}
  parseText(format: MarkupFormat, source: string): DocumentSection[] {
    this.calls.push({ format, source });
    return [{ text: this.answer }];
  }
  async parseBinary(format: BinaryFormat, bytes: Buffer): Promise<DocumentSection[]> {
    this.calls.push({ format, source: bytes.toString('latin1') });
    return [{ text: this.answer, page: 1 }];
  }
}

describe('readDocument (core)', () => {
  it('takes plain text as written, without the parser', async () => {
    const parser = new RecordingParser('unused');
    expect(await readDocument(parser, Buffer.from('\uFEFFa\r\nb'), 'n.txt')).toEqual({ sections: [{ text: 'a\nb' }], format: 'txt' });
    expect(parser.calls).toEqual([]);
  });

  it('hands text formats to the parser decoded, without a byte order mark and with \\n line ends', async () => {
    const parser = new RecordingParser('the text');
    expect(await readDocument(parser, Buffer.from('\uFEFF<p>x</p>\r\n'), 'PAGE.HTM')).toEqual({ sections: [{ text: 'the text' }], format: 'html' });
    expect((await readDocument(parser, Buffer.from('a,b\rc,d'), 'x.csv')).format).toBe('csv');
    expect((await readDocument(parser, Buffer.from('# T'), 'n.markdown')).format).toBe('md');
    expect(parser.calls).toEqual([
      { format: 'html', source: '<p>x</p>\n' },
      { format: 'csv', source: 'a,b\nc,d' },
      { format: 'md', source: '# T' },
    ]);
  });

  it('hands PDF and DOCX to the parser as bytes, never decoded as text', async () => {
    const parser = new RecordingParser('page text');
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0x00]);
    expect(await readDocument(parser, bytes, 'Report.PDF')).toEqual({ sections: [{ text: 'page text', page: 1 }], format: 'pdf' });
    expect((await readDocument(parser, Buffer.from([0x50, 0x4b, 0x00]), 'letter.docx')).format).toBe('docx');
    expect(parser.calls.map((c) => c.format)).toEqual(['pdf', 'docx']);
  });

  it('refuses what the parser finds no text in, other extensions, macro-enabled Word files and bytes that are not UTF-8', async () => {
    await expect(readDocument(new RecordingParser(' \n'), Buffer.from('{}'), 'e.json')).rejects.toThrow(new ValidationError('The document has no text'));
    await expect(readDocument(new RecordingParser('x'), Buffer.from('x'), 'x.png')).rejects.toThrow(UnsupportedMediaTypeError);
    await expect(readDocument(new RecordingParser('x'), Buffer.from('x'), 'x.docm')).rejects.toThrow(/Macro-enabled Word documents/);
    await expect(readDocument(new RecordingParser('x'), Buffer.from([0xff, 0xfe]), 'x.xml')).rejects.toThrow(UnsupportedMediaTypeError);
  });

  it('refuses a parsed text holding NUL (a JSON \\u0000 escape), which PostgreSQL cannot store, at upload rather than in the processing job', async () => {
    const refused = new ValidationError('The document contains NUL characters, which cannot be stored as text');
    await expect(readDocument(new RecordingParser('a\u0000b'), Buffer.from('{"k":"a\\u0000b"}'), 'x.json')).rejects.toThrow(refused);
  });
});
