import { UnsupportedMediaTypeError, PayloadTooLargeError } from '../../../core/shared/errors';
import { ALLOWED_UPLOAD_EXTENSIONS, MAX_UPLOAD_BYTES, detectFileType } from '../../../core/uploads/domain/file-type';

const bytes = (...parts: (number[] | string)[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const JPEG = bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF', [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
const GIF87 = bytes('GIF87a', [1, 0, 1, 0, 0x80, 0, 0]);
const GIF89 = bytes('GIF89a', [1, 0, 1, 0, 0x80, 0, 0]);
const WEBP = bytes('RIFF', [26, 0, 0, 0], 'WEBPVP8 ', [14, 0, 0, 0, 0x30, 1, 0, 0x9d, 1, 0x2a, 1, 0, 1, 0]);
const ZIP = bytes('PK', [3, 4, 20, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0], 'a.txt');
const EMPTY_ZIP = bytes('PK', [5, 6], new Array<number>(18).fill(0));
const ELF = bytes([0x7f], 'ELF', [2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const PE = bytes('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0]);

function refusal(run: () => unknown): UnsupportedMediaTypeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedMediaTypeError);
    return error as UnsupportedMediaTypeError;
  }
  throw new Error('expected the file to be refused');
}

describe('detectFileType', () => {
  it.each([
    ['photo.png', PNG, 'image/png', '.png'],
    ['photo.jpg', JPEG, 'image/jpeg', '.jpg'],
    ['photo.JPEG', JPEG, 'image/jpeg', '.jpg'],
    ['anim.gif', GIF87, 'image/gif', '.gif'],
    ['anim.gif', GIF89, 'image/gif', '.gif'],
    ['pic.webp', WEBP, 'image/webp', '.webp'],
  ])('accepts the image %s by its magic bytes', (name, content, mime, extension) => {
    expect(detectFileType(content, name)).toEqual({ kind: 'image', mime, extension });
  });

  it('accepts a ZIP archive, including an empty one (end record only)', () => {
    expect(detectFileType(ZIP, 'bundle.zip')).toEqual({ kind: 'zip', mime: 'application/zip', extension: '.zip' });
    expect(detectFileType(EMPTY_ZIP, 'empty.zip')).toEqual({ kind: 'zip', mime: 'application/zip', extension: '.zip' });
  });

  it('accepts JSON that parses, with or without a byte order mark', () => {
    const expected = { kind: 'json', mime: 'application/json', extension: '.json' };
    expect(detectFileType(Buffer.from('{"a": [1, 2, "é"]}'), 'data.json')).toEqual(expected);
    expect(detectFileType(bytes([0xef, 0xbb, 0xbf], '[true]'), 'data.json')).toEqual(expected);
  });

  it('accepts UTF-8 text and Markdown, Markdown being text with a .md or .markdown name', () => {
    const text = Buffer.from('Grüße, 世界! A line of plain text.\n');
    expect(detectFileType(text, 'notes.txt')).toEqual({ kind: 'text', mime: 'text/plain', extension: '.txt' });
    expect(detectFileType(text, 'table.csv')).toEqual({ kind: 'text', mime: 'text/csv', extension: '.csv' });
    expect(detectFileType(Buffer.from('# Title\n\nBody'), 'README.md')).toEqual({ kind: 'markdown', mime: 'text/markdown', extension: '.md' });
    expect(detectFileType(Buffer.from('# Title'), 'doc.Markdown').kind).toBe('markdown');
  });

  it('accepts Markdown that opens with inline HTML, as READMEs often do', () => {
    expect(detectFileType(Buffer.from('<p align="center"><img src="logo.png"></p>\n\n# Project'), 'README.md').kind).toBe('markdown');
  });

  it('takes JSON content with a .txt name as text', () => {
    expect(detectFileType(Buffer.from('{"a":1}'), 'data.txt').kind).toBe('text');
  });

  it('lists the allowed extensions', () => {
    expect(ALLOWED_UPLOAD_EXTENSIONS).toEqual(expect.arrayContaining(['.png', '.jpg', '.gif', '.webp', '.json', '.zip', '.txt', '.md']));
    expect(ALLOWED_UPLOAD_EXTENSIONS).not.toContain('.svg');
    expect(MAX_UPLOAD_BYTES).toBe(10 * 1024 * 1024);
  });

  it.each([
    ['a .png name holding text', Buffer.from('just some text'), 'image.png'],
    ['a .txt name holding a PNG', PNG, 'notes.txt'],
    ['a .png name holding a JPEG', JPEG, 'photo.png'],
    ['a .jpg name holding a GIF', GIF89, 'photo.jpg'],
    ['a .json name holding a WebP', WEBP, 'data.json'],
    ['a .zip name holding text', Buffer.from('not an archive'), 'bundle.zip'],
    ['a .docx name holding a ZIP', ZIP, 'report.docx'],
    ['a .md name holding a PNG', PNG, 'README.md'],
    ['a .json name holding text that does not parse', Buffer.from('{"a": 1,'), 'data.json'],
    ['a PNG with no extension at all', PNG, 'image'],
    ['text with an unknown extension', Buffer.from('hello'), 'script.sh'],
  ])('refuses %s', (_label, content, name) => {
    expect(refusal(() => detectFileType(content, name)).message).toMatch(/\S/);
  });

  it('refuses an empty file', () => {
    expect(refusal(() => detectFileType(Buffer.alloc(0), 'empty.txt')).message).toBe('The file is empty');
  });

  it('refuses SVG whatever it is called, with or without an XML prolog', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    for (const name of ['image.svg', 'image.txt', 'image.md', 'image.png']) {
      refusal(() => detectFileType(Buffer.from(svg), name));
    }
    refusal(() => detectFileType(Buffer.from(`<?xml version="1.0"?>\n${svg}`), 'image.txt'));
    refusal(() => detectFileType(Buffer.from(`<!-- made by hand -->\n${svg}`), 'image.txt'));
  });

  it('refuses HTML documents, even named as text', () => {
    refusal(() => detectFileType(Buffer.from('<!DOCTYPE html><html><body>hi</body></html>'), 'page.txt'));
    refusal(() => detectFileType(Buffer.from('<html><script>x()</script></html>'), 'page.html'));
  });

  it('refuses executables, PDFs and other binaries with a readable message', () => {
    expect(refusal(() => detectFileType(ELF, 'tool.txt')).message).toMatch(/^Executables are not allowed/);
    expect(refusal(() => detectFileType(PE, 'setup.exe')).message).toMatch(/^Executables are not allowed/);
    expect(refusal(() => detectFileType(Buffer.from('%PDF-1.7\n%âãÏÓ'), 'doc.pdf')).message).toMatch(/^PDF documents/);
    expect(refusal(() => detectFileType(bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), 'a.zip')).message).toMatch(/^Archives other than ZIP/);
  });

  it('takes text that merely starts with "MZ" as text', () => {
    expect(detectFileType(Buffer.from('MZ is how this sentence starts'), 'notes.txt').kind).toBe('text');
  });

  it('refuses text that is not UTF-8 or contains NUL bytes', () => {
    refusal(() => detectFileType(bytes('caf', [0xe9]), 'latin1.txt'));
    refusal(() => detectFileType(bytes('a', [0], 'b'), 'nul.txt'));
  });

  it('never echoes raw bytes or an odd file name in its messages', () => {
    const binary = bytes([0xde, 0xad, 0xbe, 0xef, 0, 0x3c, 0x62, 0x3e]);
    const message = refusal(() => detectFileType(binary, 'x.<b>evil</b>')).message;
    expect(message).not.toMatch(/[\u0000-\u0008\u00de\u00ad]|<b>/);
    expect(refusal(() => detectFileType(Buffer.from('text'), 'x.<script>')).message).not.toContain('<script>');
  });

  it('refuses a file over 10 MB as too large', () => {
    expect(() => detectFileType(Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x61), 'big.txt')).toThrow(PayloadTooLargeError);
  });

  it('reads the extension from the last segment of a path-like name', () => {
    expect(detectFileType(PNG, 'C:\\photos.d\\image.png').mime).toBe('image/png');
    refusal(() => detectFileType(PNG, 'photos.png/image'));
  });
});
