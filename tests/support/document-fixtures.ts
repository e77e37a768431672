import { PDFDocument, PDFHexString, PDFName, PDFNumber, rgb, StandardFonts } from 'pdf-lib';
import { ZipFile } from 'yazl';

/**
 * PDF and Word files made in the test: PDFs with pdf-lib (a PDF writer), DOCX as the ZIP of XML parts
 * that Word writes (yazl). Each hostile variant is the ordinary file with one thing changed.
 */

/** A PDF with one page per entry, each page's lines drawn as text. */
export async function aPdf(pages: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage();
    page.drawText(text, { x: 50, y: 750, size: 11, font, lineHeight: 14 });
  }
  return Buffer.from(await doc.save());
}

/** A PDF whose pages hold only a drawn rectangle (what a scan looks like to a text reader: no text layer). */
export async function anImageOnlyPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < 2; i++) doc.addPage().drawRectangle({ x: 40, y: 40, width: 500, height: 700, color: rgb(0.8, 0.8, 0.8) });
  return Buffer.from(await doc.save());
}

/** A PDF that needs a password: the standard security handler (RC4, revision 2) with a user password set. */
export async function anEncryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Secret', { x: 50, y: 700 });
  const context = doc.context;
  const key = (byte: string) => PDFHexString.of(byte.repeat(32));
  context.trailerInfo.Encrypt = context.register(
    context.obj({ Filter: 'Standard', V: 1, R: 2, Length: 40, O: key('4a'), U: key('7c'), P: -44 }),
  );
  context.trailerInfo.ID = context.obj([PDFHexString.of('0123456789abcdef0123456789abcdef'), PDFHexString.of('0123456789abcdef0123456789abcdef')]);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** A PDF whose page tree lists itself among its own kids. */
export async function aPdfWithLoopingPageTree(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('First page', { x: 50, y: 700 });
  const pages = doc.catalog.Pages();
  pages.Kids().push(doc.catalog.get(PDFName.of('Pages'))!);
  pages.set(PDFName.of('Count'), PDFNumber.of(2));
  return Buffer.from(await doc.save());
}

/** A one-page PDF whose page tree claims `count` pages. */
export async function aPdfClaimingPages(count: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage().drawText('The only real page', { x: 50, y: 700 });
  doc.catalog.Pages().set(PDFName.of('Count'), PDFNumber.of(count));
  return Buffer.from(await doc.save());
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** A Word paragraph, styled (`Heading1`, ...) or plain. */
export const wordParagraph = (text: string, style?: string): string =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** A Word table of plain cells. */
export const wordTable = (rows: string[][]): string =>
  `<w:tbl>${rows.map((cells) => `<w:tr>${cells.map((c) => `<w:tc>${wordParagraph(c)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W}>${[1, 2, 3]
  .map((n) => `<w:style w:type="paragraph" w:styleId="Heading${n}"><w:name w:val="heading ${n}"/></w:style>`)
  .join('')}</w:styles>`;

/** The parts of a minimal .docx around a body of paragraphs and tables; `extra` adds or replaces parts. */
export function docxParts(body: string, extra: Record<string, Buffer | string> = {}): Record<string, Buffer | string> {
  return {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    '_rels/.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    'word/_rels/document.xml.rels':
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    'word/styles.xml': STYLES,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}</w:body></w:document>`,
    ...extra,
  };
}

/** The parts zipped (deflated), as Word saves them. */
export function zipOf(parts: Record<string, Buffer | string>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, content] of Object.entries(parts)) zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject);
  });
}

export const aDocx = (body: string, extra?: Record<string, Buffer | string>): Promise<Buffer> => zipOf(docxParts(body, extra));
