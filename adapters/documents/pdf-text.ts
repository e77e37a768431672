import { Worker } from 'node:worker_threads';
import type { DocumentSection } from '../../core/knowledge/domain/document-section';
import { MAX_PARSED_TEXT_CHARS } from '../../core/knowledge/domain/parsed-text';
import { ValidationError } from '../../core/shared/errors';

export interface PdfLimits {
  /** A PDF with more pages is refused before any is read (a page tree may claim a million). */
  maxPages: number;
  /** Reading stops, and the PDF is refused, after this long (a hostile file cannot hold a worker forever). */
  timeoutMs: number;
  /** The reading thread's heap; a PDF that needs more is refused. */
  maxHeapMb: number;
}

export const DEFAULT_PDF_LIMITS: PdfLimits = { maxPages: 2000, timeoutMs: 60_000, maxHeapMb: 512 };

type WorkerAnswer = { pages: string[] } | { refused: string };

/**
 * The reading thread: Mozilla's pdf.js (pdfjs-dist, legacy build for Node) loaded with Node's own
 * `require` (so neither ts-node nor Jest has to transform its ES modules), fonts and eval off. It answers
 * each page's text layer, or why the PDF is refused, in words a user can act on.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const load = require('node:module').createRequire(workerData.from);
globalThis.pdfjsWorker = load('pdfjs-dist/legacy/build/pdf.worker.mjs');
const pdfjs = load('pdfjs-dist/legacy/build/pdf.mjs');
(async () => {
  const { bytes, maxPages, maxChars } = workerData;
  let doc;
  try {
    doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
  } catch (error) {
    if (error && error.name === 'PasswordException') return { refused: 'The PDF is encrypted with a password; upload a copy without a password' };
    return { refused: 'The PDF cannot be read: ' + String((error && error.message) || error).slice(0, 200) };
  }
  if (doc.numPages > maxPages) return { refused: 'The PDF has ' + doc.numPages + ' pages; at most ' + maxPages + ' are read' };
  const pages = [];
  let chars = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    let content;
    try {
      content = await (await doc.getPage(n)).getTextContent();
    } catch (error) {
      return { refused: 'The PDF cannot be read at page ' + n + ': ' + String((error && error.message) || error).slice(0, 200) };
    }
    let text = '';
    for (const item of content.items) {
      if (typeof item.str !== 'string') continue;
      text += item.str;
      if (item.hasEOL) text += '\\n';
    }
    chars += text.length;
    if (chars > maxChars) return { refused: 'The document is too large once parsed' };
    pages.push(text);
  }
  await doc.destroy();
  return { pages };
})().then(
  (answer) => parentPort.postMessage(answer),
  (error) => parentPort.postMessage({ refused: 'The PDF cannot be read: ' + String((error && error.message) || error).slice(0, 200) }),
);
`;

/**
 * The text layer of a PDF, one section per page (empty pages left out). Read on a thread of its own with
 * a time and memory limit, so a PDF whose page tree loops, that claims 10^6 pages or that is built to
 * exhaust the parser costs a refusal, never a stuck process. A PDF that needs a password is refused; one
 * with an empty user password (permissions only) opens as viewers open it. A PDF without any text
 * (scanned, image-only) is refused: there is no OCR.
 */
export async function pdfToSections(bytes: Buffer, limits: PdfLimits = DEFAULT_PDF_LIMITS): Promise<DocumentSection[]> {
  const answer = await readOnThread(bytes, limits);
  if ('refused' in answer) throw new ValidationError(answer.refused);
  const sections = answer.pages.flatMap((text, i) => (text.trim() === '' ? [] : [{ text, page: i + 1 }]));
  if (sections.length === 0) {
    throw new ValidationError('The PDF has no text layer (it looks scanned or made of images); run text recognition (OCR) on it and upload the result');
  }
  return sections;
}

function readOnThread(bytes: Buffer, limits: PdfLimits): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    // A copy: the thread takes its own bytes, the caller's buffer stays usable.
    const data = new Uint8Array(bytes);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { from: __filename, bytes: data, maxPages: limits.maxPages, maxChars: MAX_PARSED_TEXT_CHARS },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => finish(() => resolve({ refused: `The PDF took more than ${Math.round(limits.timeoutMs / 1000)} s to read and was given up` })), limits.timeoutMs);
    worker.on('message', (answer: WorkerAnswer) => finish(() => resolve(answer)));
    worker.on('error', (error: Error & { code?: string }) =>
      finish(() => (error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? resolve({ refused: 'The PDF needs too much memory to read' }) : reject(error))),
    );
    worker.on('exit', () => finish(() => reject(new Error('The PDF reading thread ended without an answer'))));
  });
}
