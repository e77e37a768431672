import type { UploadKind } from './file-type';

export interface Upload {
  id: string;
  ownerId: string;
  /** The name the client gave, cleaned for display; never used to address the stored file. */
  fileName: string;
  mimeType: string;
  kind: UploadKind;
  sizeBytes: number;
  /** Where the FileStore keeps the bytes; made by the server. */
  storageKey: string;
  createdAt: Date;
}

export interface UploadView {
  id: string;
  fileName: string;
  mimeType: string;
  kind: UploadKind;
  size: number;
  /** Where the content is served from (as an attachment). */
  url: string;
  createdAt: string;
}

export const toUploadView = (u: Upload): UploadView => ({
  id: u.id,
  fileName: u.fileName,
  mimeType: u.mimeType,
  kind: u.kind,
  size: u.sizeBytes,
  url: `/api/uploads/${u.id}/content`,
  createdAt: u.createdAt.toISOString(),
});

const MAX_NAME_LENGTH = 200;

/**
 * A client-supplied file name made safe to keep and show: the last path segment only, without control
 * or bidirectional-override characters, trimmed and shortened. Falls back to `fallback` when nothing is left.
 */
export function cleanFileName(raw: string, fallback = 'file'): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // Control characters and the Unicode format characters that can disguise an extension (U+202E and friends).
  const cleaned = base.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '').trim();
  const name = cleaned.replace(/^\.+/, '');
  if (name === '') return fallback;
  if (name.length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  return name.slice(0, MAX_NAME_LENGTH - extension.length) + extension;
}
