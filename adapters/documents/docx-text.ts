import mammoth from 'mammoth';
import yauzl from 'yauzl';
import type { DocumentSection } from '../../core/knowledge/domain/document-section';
import { ValidationError } from '../../core/shared/errors';
import { htmlToSections } from './html-text';

/** A Word document unpacks to at most this much (its parts together), and holds at most this many parts. */
const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;
const MAX_ENTRIES = 5000;
/** Deflate tops out near 1000:1 on real content; a part compressed further is a bomb's, not a document's. */
const MAX_RATIO = 200;

const notWord = (why: string) => new ValidationError(`The file is not a readable Word document (.docx): ${why}`);

/**
 * A Word document's text in sections (mammoth turns it into HTML: headings by their Word styles, lists,
 * tables), refused when it is not a ZIP, unpacks to too much (a ZIP bomb), or carries macros. The ZIP is
 * read first with yauzl, every part inflated with its size counted as the bytes arrive (headers are not
 * trusted), so mammoth only ever opens an archive already known to be small.
 */
export async function docxToSections(bytes: Buffer): Promise<DocumentSection[]> {
  const parts = await inspectZip(bytes);
  if (!parts.has('word/document.xml')) throw notWord('it has no word/document.xml');
  if ([...parts.keys()].some((name) => /(^|\/)vbaProject\.bin$/i.test(name)) || /macroEnabled/i.test(parts.get('[Content_Types].xml') ?? '')) {
    throw new ValidationError('The Word document contains macros; save it as a .docx without macros and upload that');
  }
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: bytes },
      { externalFileAccess: false, convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    );
    html = result.value;
  } catch (error) {
    throw notWord(error instanceof Error ? error.message.slice(0, 200) : 'unreadable');
  }
  return htmlToSections(html, { cellSeparator: ' | ', listMarkers: true });
}

/** The archive's part names, with the text of [Content_Types].xml; refuses what is not a safe ZIP. */
function inspectZip(zip: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true }, (openError, archive) => {
      if (openError || !archive) return reject(notWord(openError?.message ?? 'empty'));
      const parts = new Map<string, string>();
      let total = 0;
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        archive.close();
        reject(error);
      };
      const bomb = () => new ValidationError(`The Word document unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB (a ZIP bomb?) and is refused`);
      archive.on('error', (e: Error) => fail(notWord(e.message)));
      archive.on('end', () => {
        if (!settled) {
          settled = true;
          resolve(parts);
        }
      });
      archive.on('entry', (entry: yauzl.Entry) => {
        if (parts.size >= MAX_ENTRIES) return fail(notWord(`it holds more than ${MAX_ENTRIES} parts`));
        const name = entry.fileName;
        if (name.endsWith('/')) return archive.readEntry();
        if (total + entry.uncompressedSize > MAX_UNPACKED_BYTES) return fail(bomb());
        if (entry.compressedSize > 0 && entry.uncompressedSize / entry.compressedSize > MAX_RATIO && entry.uncompressedSize > 1024 * 1024) return fail(bomb());
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return fail(notWord(streamError?.message ?? `${name} cannot be read`));
          const keep = name === '[Content_Types].xml';
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => {
            total += chunk.length;
            if (total > MAX_UNPACKED_BYTES) {
              stream.destroy();
              return fail(bomb());
            }
            if (keep) chunks.push(chunk);
          });
          stream.on('error', (e: Error) => fail(notWord(e.message)));
          stream.on('end', () => {
            parts.set(name, keep ? Buffer.concat(chunks).toString('utf8') : '');
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}
