import { isUtf8 } from 'node:buffer';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from '../../shared/errors';

/** SPEC 8: uploads are at most 10 MB. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

export type UploadKind = 'image' | 'json' | 'zip' | 'text' | 'markdown';

export interface DetectedType {
  kind: UploadKind;
  mime: string;
  /** The canonical extension of the type, with its dot (`.jpg` for a `.jpeg` name too). */
  extension: string;
}

export interface AllowedUploadType {
  kind: UploadKind;
  mime: string;
  /** Accepted name extensions, lower-case with the dot; the first is the canonical one. */
  extensions: readonly string[];
}

/** SPEC 8: images, JSON, ZIP, text and Markdown. Nothing else is accepted, SVG included. */
export const ALLOWED_UPLOAD_TYPES: readonly AllowedUploadType[] = [
  { kind: 'image', mime: 'image/png', extensions: ['.png'] },
  { kind: 'image', mime: 'image/jpeg', extensions: ['.jpg', '.jpeg'] },
  { kind: 'image', mime: 'image/gif', extensions: ['.gif'] },
  { kind: 'image', mime: 'image/webp', extensions: ['.webp'] },
  { kind: 'json', mime: 'application/json', extensions: ['.json'] },
  { kind: 'zip', mime: 'application/zip', extensions: ['.zip'] },
  { kind: 'text', mime: 'text/plain', extensions: ['.txt', '.text', '.log'] },
  { kind: 'text', mime: 'text/csv', extensions: ['.csv'] },
  { kind: 'markdown', mime: 'text/markdown', extensions: ['.md', '.markdown'] },
];

export const ALLOWED_UPLOAD_EXTENSIONS: readonly string[] = ALLOWED_UPLOAD_TYPES.flatMap((t) => t.extensions);

interface Signature {
  mime: string;
  matches(bytes: Buffer): boolean;
}

const startsWith = (bytes: Buffer, prefix: number[] | string, at = 0): boolean => {
  const expected = typeof prefix === 'string' ? Buffer.from(prefix, 'latin1') : Buffer.from(prefix);
  return bytes.length >= at + expected.length && bytes.subarray(at, at + expected.length).equals(expected);
};

/** Binary formats we accept, recognised by their magic bytes. */
const ACCEPTED_SIGNATURES: Signature[] = [
  { mime: 'image/png', matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mime: 'image/jpeg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mime: 'image/gif', matches: (b) => startsWith(b, 'GIF87a') || startsWith(b, 'GIF89a') },
  { mime: 'image/webp', matches: (b) => startsWith(b, 'RIFF') && startsWith(b, 'WEBP', 8) },
  // A ZIP opens with a local file header, or (empty archive) with the 22-byte end-of-central-directory record.
  { mime: 'application/zip', matches: (b) => startsWith(b, 'PK\x03\x04') || isEmptyZip(b) },
];

/** The end-of-central-directory record alone: 22 bytes plus its own comment, nothing else. */
function isEmptyZip(bytes: Buffer): boolean {
  return startsWith(bytes, 'PK\x05\x06') && bytes.length >= 22 && bytes.length === 22 + bytes.readUInt16LE(20);
}

const MACH_O_MAGICS = ['\xfe\xed\xfa\xce', '\xfe\xed\xfa\xcf', '\xce\xfa\xed\xfe', '\xcf\xfa\xed\xfe', '\xca\xfe\xba\xbe'];

/** Binary formats refused, named so the message says what the file looked like. */
const REFUSED_SIGNATURES: { label: string; matches(bytes: Buffer): boolean }[] = [
  { label: 'Executables', matches: (b) => ['\x7fELF', 'MZ', ...MACH_O_MAGICS].some((m) => startsWith(b, m)) },
  { label: 'WebAssembly modules', matches: (b) => startsWith(b, '\0asm') },
  { label: 'Archives other than ZIP', matches: (b) => ['\x1f\x8b', '7z\xbc\xaf\x27\x1c', 'Rar!'].some((m) => startsWith(b, m)) },
];

/**
 * Text that is really a markup document (it opens with a tag and soon declares itself). Browsers run
 * scripts in SVG and HTML, so neither is stored whatever its name says. Only the opening is checked:
 * Markdown may legitimately open with `<p align="center">` or contain HTML further down.
 */
function isMarkupDocument(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*</.test(head) && /<(?:\?xml|!doctype|html|head|body|svg|script|iframe)[\s>/]/i.test(head);
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * What an uploaded file really is, decided by its content; the name's extension must agree.
 * Throws UnsupportedMediaTypeError for anything outside the allowed list, PayloadTooLargeError above 10 MB.
 */
export function detectFileType(bytes: Buffer, fileName: string): DetectedType {
  if (bytes.length === 0) throw new UnsupportedMediaTypeError('The file is empty');
  if (bytes.length > MAX_UPLOAD_BYTES) throw new PayloadTooLargeError('The file is larger than the 10 MB upload limit');

  const extension = extensionOf(fileName);
  const binary = ACCEPTED_SIGNATURES.find((s) => s.matches(bytes));
  if (binary) return expectExtension(byMime(binary.mime), extension);

  if (startsWith(bytes, '%PDF-')) throw new UnsupportedMediaTypeError(`PDF documents are not allowed; ${allowedList()}`);
  if (bytes.includes(0) || !isUtf8(bytes)) {
    // Only binary content is matched against these: "MZ" is also how a sentence can start.
    const refused = REFUSED_SIGNATURES.find((s) => s.matches(bytes));
    if (refused) throw new UnsupportedMediaTypeError(`${refused.label} are not allowed; ${allowedList()}`);
    throw new UnsupportedMediaTypeError(`The file is neither a supported image or archive nor UTF-8 text; ${allowedList()}`);
  }
  const text = (startsWith(bytes, [...BOM]) ? bytes.subarray(BOM.length) : bytes).toString('utf8');
  if (isMarkupDocument(text)) {
    throw new UnsupportedMediaTypeError(`HTML, SVG and XML documents are not allowed; ${allowedList()}`);
  }

  if (extension === '.json') {
    if (!isJson(text)) throw new UnsupportedMediaTypeError('The file is named .json but does not contain valid JSON');
    return expectExtension(byMime('application/json'), extension);
  }
  const textual = ALLOWED_UPLOAD_TYPES.find((t) => (t.kind === 'text' || t.kind === 'markdown') && t.extensions.includes(extension ?? ''));
  if (textual) return detected(textual);
  const mismatch = extension !== undefined && ALLOWED_UPLOAD_EXTENSIONS.includes(extension);
  throw new UnsupportedMediaTypeError(
    `The file content is text but ${describe(extension)} ${mismatch ? 'does not match it' : 'is not allowed'}; ${allowedList()}`,
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function expectExtension(type: AllowedUploadType, extension: string | undefined): DetectedType {
  if (extension !== undefined && type.extensions.includes(extension)) return detected(type);
  throw new UnsupportedMediaTypeError(
    `The file content is ${type.mime} but ${describe(extension)} does not match it; expected ${type.extensions.join(' or ')}`,
  );
}

function detected(type: AllowedUploadType): DetectedType {
  return { kind: type.kind, mime: type.mime, extension: type.extensions[0]! };
}

function byMime(mime: string): AllowedUploadType {
  return ALLOWED_UPLOAD_TYPES.find((t) => t.mime === mime)!;
}

/** Lower-case extension with its dot, or undefined; the name may carry a client-side path. */
function extensionOf(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 && dot < base.length - 1 ? base.slice(dot).toLowerCase() : undefined;
}

/** Names are client input: only a short, plain extension is repeated in messages. */
function describe(extension: string | undefined): string {
  if (extension === undefined) return 'the file name has no extension, which';
  return /^\.[a-z0-9]{1,10}$/.test(extension) ? `the extension ${extension}` : 'the file extension';
}

function allowedList(): string {
  return `allowed types: ${ALLOWED_UPLOAD_EXTENSIONS.join(', ')}`;
}
