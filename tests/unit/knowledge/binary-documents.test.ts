import { LibraryDocumentParser } from '../../../adapters/documents/library.document-parser';
import { chunkSections } from '../../../core/knowledge/domain/chunker';
import { readDocument } from '../../../core/knowledge/use-cases/read-document';
import { UnsupportedMediaTypeError, ValidationError } from '../../../core/shared/errors';
import {
  aDocx, anEncryptedPdf, anImageOnlyPdf, aPdf, aPdfClaimingPages, aPdfWithLoopingPageTree, wordParagraph, wordTable,
} from '../../support/document-fixtures';
import { knowledgeWorld } from './knowledge-world';

const parser = new LibraryDocumentParser();
const read = (bytes: Buffer, name: string) => readDocument(parser, bytes, name);

describe('PDF documents', () => {
  it('reads the text layer page by page, and every chunk keeps its page', async () => {
    const pdf = await aPdf(['Welcome to the handbook.\nPage one explains the basics.', 'Leave rules live on page two.', 'Page three lists the part number ZX-1009.']);
    const { format, sections } = await read(pdf, 'handbook.pdf');
    expect(format).toBe('pdf');
    expect(sections.map((s) => s.page)).toEqual([1, 2, 3]);
    expect(sections[0]!.text).toContain('Page one explains the basics.');
    const chunks = chunkSections(sections, { chunkSize: 100, chunkOverlap: 0 });
    expect(chunks.map((c) => [c.page, c.content.includes('ZX-1009')])).toEqual([[1, false], [2, false], [3, true]]);
  });

  it('refuses a PDF that needs a password, saying so', async () => {
    await expect(read(await anEncryptedPdf(), 'secret.pdf')).rejects.toThrow(new ValidationError('The PDF is encrypted with a password; upload a copy without a password'));
  });

  it('refuses an image-only PDF: there is no text layer to read', async () => {
    await expect(read(await anImageOnlyPdf(), 'scan.pdf')).rejects.toThrow(/no text layer .*OCR/);
  });

  it('refuses a PDF whose page tree loops, naming the page, without hanging', async () => {
    await expect(read(await aPdfWithLoopingPageTree(), 'loop.pdf')).rejects.toThrow(/cannot be read at page 2/);
  });

  it('reads only the real pages of a PDF claiming a million, at once', async () => {
    const { sections } = await read(await aPdfClaimingPages(1_000_000), 'claims.pdf');
    expect(sections).toEqual([{ text: 'The only real page', page: 1 }]);
  });

  it('refuses more pages than the limit, and gives up on a PDF that takes too long', async () => {
    const pdf = await aPdf(['one', 'two', 'three']);
    await expect(readDocument(new LibraryDocumentParser({ maxPages: 2, timeoutMs: 60_000, maxHeapMb: 256 }), pdf, 'long.pdf')).rejects.toThrow('The PDF has 3 pages; at most 2 are read');
    await expect(readDocument(new LibraryDocumentParser({ maxPages: 10, timeoutMs: 1, maxHeapMb: 256 }), pdf, 'slow.pdf')).rejects.toThrow(/took more than .* to read/);
  });

  it('refuses bytes that are not a PDF', async () => {
    await expect(read(Buffer.from('not a pdf at all'), 'fake.pdf')).rejects.toThrow(/The PDF cannot be read/);
  });
});

describe('Word documents', () => {
  const body = [
    wordParagraph('Employee handbook', 'Heading1'),
    wordParagraph('Read this first.'),
    wordParagraph('Leave', 'Heading2'),
    wordParagraph('Annual leave is 25 days.'),
    wordTable([['Kind', 'Days'], ['Annual', '25'], ['Sick', '10']]),
    wordParagraph('Equipment', 'Heading2'),
    wordParagraph('Laptops are replaced every three years.'),
  ].join('');

  it('keeps headings as the section path and tables as rows of cells', async () => {
    const { format, sections } = await read(await aDocx(body), 'handbook.docx');
    expect(format).toBe('docx');
    expect(sections).toEqual([
      { text: 'Employee handbook\n\nRead this first.', headings: ['Employee handbook'] },
      { text: 'Leave\n\nAnnual leave is 25 days.\n\nKind | Days\nAnnual | 25\nSick | 10', headings: ['Employee handbook', 'Leave'] },
      { text: 'Equipment\n\nLaptops are replaced every three years.', headings: ['Employee handbook', 'Equipment'] },
    ]);
    const chunks = chunkSections(sections);
    expect(chunks.map((c) => c.section)).toEqual(['Employee handbook', 'Employee handbook > Leave', 'Employee handbook > Equipment']);
  });

  it('refuses a ZIP bomb before Word parsing ever sees it', async () => {
    const bomb = await aDocx(body, { 'word/media/filler.bin': Buffer.alloc(120 * 1024 * 1024) });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await expect(read(bomb, 'bomb.docx')).rejects.toThrow(/ZIP bomb/);
  });

  it('refuses a .docm by its name, and a .docx that carries macros inside', async () => {
    await expect(read(await aDocx(body), 'macro.docm')).rejects.toThrow(UnsupportedMediaTypeError);
    const withMacros = await aDocx(body, { 'word/vbaProject.bin': Buffer.from('Attribute VB_Name = "AutoOpen"') });
    await expect(read(withMacros, 'renamed.docx')).rejects.toThrow('The Word document contains macros; save it as a .docx without macros and upload that');
  });

  it('refuses a file that is not a Word document', async () => {
    await expect(read(Buffer.from('plain text'), 'fake.docx')).rejects.toThrow(/not a readable Word document/);
  });
});

describe('uploading PDF and Word documents', () => {
  const upload = async (world: Awaited<ReturnType<typeof knowledgeWorld>>, name: string, bytes: Buffer) =>
    world.upload.execute({ fields: { applicationId: world.app.id }, file: { name, bytes } }, world.actor);

  it('processes a PDF to ready, its chunks carrying their pages', async () => {
    const world = await knowledgeWorld();
    const accepted = await upload(world, 'handbook.pdf', await aPdf(['First page text.', 'Second page text.']));
    await world.process.execute({ documentId: accepted.id });
    expect(await world.documents.findById(accepted.id)).toMatchObject({ status: 'ready', format: 'pdf', chunkCount: 2 });
    expect(world.index.chunks.map((c) => c.page)).toEqual([1, 2]);
  });

  it('answers a refused PDF with a 4xx at upload, storing nothing', async () => {
    const world = await knowledgeWorld();
    await expect(upload(world, 'secret.pdf', await anEncryptedPdf())).rejects.toThrow(ValidationError);
    expect(world.documents.documents.size).toBe(0);
  });
});
