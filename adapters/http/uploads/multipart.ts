import type { Context, Middleware, Next } from 'koa';
import { koaBody } from 'koa-body';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { PayloadTooLargeError, UnsupportedMediaTypeError, ValidationError } from '../../../core/shared/errors';
import { checkPlainData } from '../shared/untrusted-input';
import type { ReceivedFile } from '../../../core/uploads/use-cases/create-upload.use-case';

/** A parsed multipart/form-data request: its text fields and at most one file. */
export interface MultipartForm {
  fields: Record<string, string>;
  file?: ReceivedFile;
}

/** Room for the form's other fields and part headers next to a file of the maximum size. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** After refusing a body, the rest of it is discarded for at most this long before the connection is cut. */
const DRAIN_MS = 5_000;

// formidable's error codes (formidable/src/FormidableError.js).
const TOO_LARGE = new Set([1009, 1016]);
const TOO_MANY_FILES = 1015;
const TOO_MANY_FIELDS = new Set([1006, 1007]);

/**
 * Route middleware for uploads: streams the request through formidable into a temporary file, counting
 * bytes, and answers 413 as soon as the file passes `maxFileBytes` (or at once when Content-Length says
 * it will), so a large body is never held in memory. Puts the form on `ctx.state.form`; the temporary
 * file is removed before the route runs.
 */
export function multipartForm(options: { maxFileBytes: number; fileField?: string }): Middleware {
  const fileField = options.fileField ?? 'file';
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      uploadDir: tmpdir(),
      maxFiles: 1,
      maxFileSize: options.maxFileBytes,
      maxTotalFileSize: options.maxFileBytes,
      minFileSize: 0,
      allowEmptyFiles: true,
      maxFields: 20,
      maxFieldsSize: FORM_OVERHEAD_BYTES,
    },
  });

  return async (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.is('multipart/form-data')) {
      refuseBody(ctx);
      throw new UnsupportedMediaTypeError(`Send the file as multipart/form-data in a "${fileField}" field`);
    }
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > options.maxFileBytes + FORM_OVERHEAD_BYTES) {
      refuseBody(ctx);
      throw tooLarge(options.maxFileBytes);
    }
    try {
      await parse(ctx, async () => undefined);
    } catch (error) {
      await removeTemporaryFiles(ctx);
      refuseBody(ctx);
      throw translate(error, options.maxFileBytes);
    }
    try {
      ctx.state.form = await readForm(ctx, fileField);
    } finally {
      await removeTemporaryFiles(ctx);
    }
    await next();
  };
}

/** The form put on `ctx.state` by `multipartForm`. */
export const formOf = (ctx: Context): MultipartForm => (ctx.state.form as MultipartForm | undefined) ?? { fields: {} };

async function readForm(ctx: Context, fileField: string): Promise<MultipartForm> {
  const fields: Record<string, string> = {};
  const sent = (ctx.request.body ?? {}) as Record<string, string | string[]>;
  checkPlainData(sent); // the same refusals as JSON bodies: prototype-named fields, NUL, ill-formed text
  for (const [name, value] of Object.entries(sent)) {
    if (Array.isArray(value)) throw ValidationError.field(name, `${name} must be sent once`);
    fields[name] = value;
  }
  const files = ctx.request.files ?? {};
  const other = Object.keys(files).find((name) => name !== fileField);
  if (other !== undefined) throw ValidationError.field(fileField, `The file must be sent in the "${fileField}" field`);
  const part = files[fileField];
  if (!part) return { fields };
  const single = Array.isArray(part) ? part[0]! : part;
  return { fields, file: { name: single.originalFilename ?? '', bytes: await readFile(single.filepath) } };
}

async function removeTemporaryFiles(ctx: Context): Promise<void> {
  const files = Object.values(ctx.request.files ?? {}).flat();
  await Promise.all(files.map((f) => rm(f.filepath, { force: true })));
}

function translate(error: unknown, maxFileBytes: number): Error {
  const code = (error as { code?: number }).code;
  if (code !== undefined && TOO_LARGE.has(code)) return tooLarge(maxFileBytes);
  if (code === TOO_MANY_FILES) return new ValidationError('Send one file per request');
  if (code !== undefined && TOO_MANY_FIELDS.has(code)) return new ValidationError('The form has too many or too large fields');
  return new ValidationError('The request is not a well-formed multipart/form-data body');
}

const tooLarge = (max: number) => new PayloadTooLargeError(`The file is larger than the ${Math.round(max / (1024 * 1024))} MB upload limit`);

/**
 * After an early answer the client may still be sending: the rest is read and thrown away (never kept)
 * so it receives the answer, and the connection is closed once it is done or has had `DRAIN_MS`.
 */
function refuseBody(ctx: Context): void {
  ctx.set('Connection', 'close');
  const req = ctx.req;
  if (req.readableEnded) return;
  const cut = setTimeout(() => req.socket.destroy(), DRAIN_MS);
  cut.unref();
  req.on('end', () => clearTimeout(cut));
  req.on('close', () => clearTimeout(cut));
  req.resume();
}
