import { UnsupportedMediaTypeError, ValidationError } from '../../../core/shared/errors';
import { parseCsv } from '../../../adapters/documents/csv-text';
import { LibraryDocumentParser } from '../../../adapters/documents/library.document-parser';
import { MAX_PARSED_TEXT_CHARS } from '../../../core/knowledge/domain/parsed-text';
import { readDocument } from '../../../core/knowledge/use-cases/read-document';

const parser = new LibraryDocumentParser();
/** The document's sections joined as one text (each section's place is tested in document-structure.test.ts). */
const parseDocument = async (bytes: Buffer, name: string) => {
  const { format, sections } = await readDocument(parser, bytes, name);
  return { text: sections.map((s) => s.text).join('\n\n'), format };
};
const parse = (content: string, name: string) => parseDocument(Buffer.from(content, 'utf8'), name);
const textOf = async (content: string, name: string) => (await parse(content, name)).text;

describe('reading documents through LibraryDocumentParser', () => {
  describe('text and Markdown', () => {
    it('keeps plain text as written, without a byte order mark and with \\n line ends', async () => {
      expect(await parse('\uFEFFLine one\r\nLine two\rLine three', 'notes.txt')).toEqual({ text: 'Line one\nLine two\nLine three', format: 'txt' });
    });

    it('keeps Markdown as written (trimmed)', async () => {
      const md = '# Title\n\nSome *emphasis* and a [link](https://example.com).';
      expect(await parse(md, 'README.md')).toEqual({ text: md, format: 'md' });
      expect((await parse(md, 'guide.markdown')).format).toBe('md');
    });
  });

  describe('JSON', () => {
    it('reads as "path: value" lines in document order', async () => {
      const json = JSON.stringify({ user: { name: 'Ada', age: 36, active: true }, tags: ['math', 'engines'], items: [{ sku: 'A1', price: 3 }, { sku: 'B2', price: null }] });
      expect(await textOf(json, 'data.json')).toBe(
        ['user.name: Ada', 'user.age: 36', 'user.active: true', 'tags: math, engines', 'items[0].sku: A1', 'items[0].price: 3', 'items[1].sku: B2', 'items[1].price: null'].join('\n'),
      );
    });

    it('quotes keys that are not plain names, and reads a bare value as itself', async () => {
      expect(await textOf('{"odd key": {"a.b": "x"}}', 'd.json')).toBe('["odd key"]["a.b"]: x');
      expect(await textOf('"just a string"', 'd.json')).toBe('just a string');
    });

    it('tolerates a byte order mark', async () => {
      expect(await textOf('\uFEFF{"a": "b"}', 'd.json')).toBe('a: b');
    });

    it('refuses malformed JSON with a validation error', async () => {
      await expect(parse('{"a": 1,}', 'broken.json')).rejects.toThrow(new ValidationError('The document is not valid JSON'));
    });

    it('refuses JSON nested absurdly deep', async () => {
      await expect(parse(`${'['.repeat(100)}1${']'.repeat(100)}`, 'deep.json')).rejects.toThrow(ValidationError);
    });

    it('finds no text in an empty object', async () => {
      await expect(parse('{"a": {}, "b": [], "c": ""}', 'empty.json')).rejects.toThrow(new ValidationError('The document has no text'));
    });
  });

  describe('CSV', () => {
    it('reads one line per row as "header: value; header: value"', async () => {
      expect(await textOf('name,city\nAda,London\nAlan,Wilmslow\n', 'people.csv')).toBe('name: Ada; city: London\nname: Alan; city: Wilmslow');
    });

    it('follows RFC 4180 quoting: embedded commas, doubled quotes and line breaks', async () => {
      const csv = 'title,quote,notes\r\n"Smith, J.","He said ""hi""","line one\r\nline two"\r\nplain,"",x\r\n';
      expect(await textOf(csv, 'q.csv')).toBe('title: Smith, J.; quote: He said "hi"; notes: line one line two\ntitle: plain; notes: x');
    });

    it('parses the records exactly', async () => {
      expect(parseCsv('a,"b,c",d\n"x""y",,"multi\nline"\n')).toEqual([['a', 'b,c', 'd'], ['x"y', '', 'multi\nline']]);
      expect(parseCsv('a,b')).toEqual([['a', 'b']]);
      expect(parseCsv('a,b\n\n')).toEqual([['a', 'b'], ['']]);
    });

    it('keeps text around stray quotes and after an unterminated quote', async () => {
      // csv-parse keeps the quotes of a quoted part followed by more text ("ok"x) as written: no text is lost.
      expect(parseCsv('5" screen,"ok"x,"never closed, really')).toEqual([['5" screen', '"ok"x', 'never closed, really']]);
      expect(parseCsv('a,b\n1,"open\n2,3\n')).toEqual([['a', 'b'], ['1', 'open\n2,3\n']]);
    });

    it('names columns past the header row by number and skips blank rows', async () => {
      expect(await textOf('a,b\n1,2,3\n\n,,\n4', 'x.csv')).toBe('a: 1; b: 2; column 3: 3\na: 4');
    });

    it('reads a header-only file as its headers', async () => {
      expect(await textOf('name,email\n', 'h.csv')).toBe('name; email');
    });

    it('refuses a CSV that would blow up once headers repeat on every row', async () => {
      const header = 'h'.repeat(200_000);
      const csv = `${header},${header}\n${'1,1\n'.repeat(Math.ceil(MAX_PARSED_TEXT_CHARS / 400_000) + 1)}`;
      await expect(parse(csv, 'bomb.csv')).rejects.toThrow(new ValidationError('The document is too large once parsed'));
    });
  });

  describe('HTML', () => {
    it('keeps only the text: script, style, head and comments are dropped', async () => {
      const html = `<!DOCTYPE html><html><head><title>T</title><style>p { color: red }</style></head>
        <body><!-- secret comment --><h1>Welcome</h1><script>alert("x < y")</script><p>Hello <b>bold</b> world</p>
        <noscript>enable js</noscript></body></html>`;
      expect(await textOf(html, 'page.html')).toBe('Welcome\n\nHello bold world');
    });

    it('turns block elements into line breaks and cells into spaces', async () => {
      const html = '<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>line<br>break';
      expect(await textOf(html, 'list.htm')).toBe('one\ntwo\n\na b\nc\n\nline\nbreak');
    });

    it('reads source line breaks as spaces except in <pre>, and counts each <br>', async () => {
      const html = '<p>wrapped\n   source line</p><pre>keep\nthis</pre>a<br><br><br>b';
      expect(await textOf(html, 'a.html')).toBe('wrapped source line\n\nkeep\nthis\n\na\n\nb');
    });

    it('decodes named and numeric entities once, and leaves unknown ones alone', async () => {
      const html = '<p>Fish &amp; chips &lt;3 &copy; &eacute;t&eacute; &#8364;5 &#x1F600; &mdash; &amp;lt; &bogus; &#0; &#xD800; &#99999999;</p>';
      expect(await textOf(html, 'e.html')).toBe('Fish & chips <3 © été €5 😀 — &lt; &bogus; \uFFFD \uFFFD \uFFFD');
    });

    it('does not let a ">" inside an attribute end the tag', async () => {
      expect(await textOf('<a title="a > b" href=\'x>y\'>link</a> text', 'a.html')).toBe('link text');
    });

    it('treats a lone "<" as text and an unclosed script as hiding the rest', async () => {
      expect(await textOf('<p>1 < 2</p><script>never closed <p>hidden</p>', 'a.html')).toBe('1 < 2');
    });

    it('ends a head without an end tag where the body starts', async () => {
      expect(await textOf('<html><head><title>x</title><body><p>Body text</p>', 'a.html')).toBe('Body text');
    });

    it('finds no text in a page of scripts', async () => {
      await expect(parse('<script>var x = 1;</script><style>a{}</style>', 'a.html')).rejects.toThrow(new ValidationError('The document has no text'));
    });
  });

  describe('XML', () => {
    it('drops tags and keeps text, CDATA literally', async () => {
      const xml = '<?xml version="1.0"?><catalog><!-- c --><book id="1"><title>Dune &amp; more</title><note><![CDATA[raw <b>&amp;</b>]]></note></book></catalog>';
      expect(await textOf(xml, 'books.xml')).toBe('Dune & more\nraw <b>&amp;</b>');
    });

    it('decodes the five predefined and numeric entities, nothing else', async () => {
      expect(await textOf('<a>&lt;&gt;&amp;&quot;&apos; &#65;&#x42; &copy; &nbsp;</a>', 'e.xml')).toBe('<>&"\' AB &copy; &nbsp;');
    });

    it.each(['<!DOCTYPE note SYSTEM "note.dtd">', '<!doctype note>', '<!DocType note>'])('refuses a DOCTYPE in any case: %s', async (doctype) => {
      await expect(parse(`<?xml version="1.0"?>\n${doctype}\n<note>hi</note>`, 'n.xml')).rejects.toThrow(ValidationError);
    });

    it('refuses a billion-laughs document without expanding anything', async () => {
      const lol = [
        '<?xml version="1.0"?>',
        '<!DOCTYPE lolz [',
        ' <!ENTITY lol "lol">',
        ...Array.from({ length: 9 }, (_, i) => ` <!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`),
        ']>',
        '<lolz>&lol9;</lolz>',
      ].join('\n');
      await expect(parse(lol, 'lol.xml')).rejects.toThrow(/DOCTYPE/);
    });

    it('refuses entity declarations even without a DOCTYPE, and never expands an undeclared entity', async () => {
      await expect(parse('<a><!ENTITY x "boom"></a>', 'x.xml')).rejects.toThrow(ValidationError);
      expect(await textOf('<a>&lol9;</a>', 'x.xml')).toBe('&lol9;');
    });

    it('refuses XML that is not well-formed, naming where', async () => {
      await expect(parse('<a>1 < 2</a>', 'bad.xml')).rejects.toThrow(/not well-formed XML \(line 1, column \d+\)/);
      await expect(parse('<a><b></a>', 'bad.xml')).rejects.toThrow(ValidationError);
      await expect(parse('just words', 'bad.xml')).rejects.toThrow(ValidationError);
    });

    it('refuses XML nested absurdly deep', async () => {
      await expect(parse(`${'<a>'.repeat(200)}x${'</a>'.repeat(200)}`, 'deep.xml')).rejects.toThrow(/nested more than 100 levels/);
    });

    it('refuses an external entity attack', async () => {
      await expect(parse('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><x>&xxe;</x>', 'x.xml')).rejects.toThrow(ValidationError);
    });
  });

  describe('refusals', () => {
    it('refuses an unsupported extension, listing the supported ones', async () => {
      for (const name of ['report.doc', 'image.png', 'noextension', 'x.svg']) {
        await expect(parse('hello', name)).rejects.toThrow(UnsupportedMediaTypeError);
      }
      await expect(parse('hello', 'image.png')).rejects.toThrow(/\.txt, \.md, .*\.json, \.csv, \.html, \.htm, \.xml, \.pdf, \.docx/);
    });

    it('decides the format by extension, case-insensitively', async () => {
      expect((await parse('<p>x</p>', 'PAGE.HTML')).format).toBe('html');
      expect(await parse('<p>x</p>', 'page.txt')).toEqual({ text: '<p>x</p>', format: 'txt' });
    });

    it('refuses content that is not UTF-8 text', async () => {
      await expect(parseDocument(Buffer.from([0x63, 0x61, 0x66, 0xe9]), 'latin1.txt')).rejects.toThrow(UnsupportedMediaTypeError);
      await expect(parseDocument(Buffer.from('a\0b'), 'nul.txt')).rejects.toThrow(UnsupportedMediaTypeError);
    });

    it.each([['', 'a.txt'], ['  \n\t ', 'b.md'], ['<p> </p>', 'c.html'], ['<a/>', 'd.xml'], ['\n\n', 'e.csv']])(
      'finds no text in %j',
      async (content, name) => {
        await expect(parse(content, name)).rejects.toThrow(new ValidationError('The document has no text'));
      },
    );
  });
});
