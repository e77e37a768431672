/** The API's error body (ARCHITECTURE.md): every failure answers it. */
export interface ApiErrorBody {
  statusCode: number;
  message: string;
  error: string;
  details?: { path: string; message: string }[];
}

/** A failed API call, as the screens show it: the message, the status, and the fields it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: { path: string; message: string }[] = [],
  ) {
    super(message);
  }

  /** The message for one field, when the API named it (`details[].path`). */
  fieldMessage(field: string): string | undefined {
    return this.details.find((d) => d.path === field || d.path.startsWith(`${field}.`) || d.path.startsWith(`${field}[`))?.message;
  }
}

/** A request that never got an answer (offline, server down): shown as a banner with a retry. */
export class NetworkError extends Error {}

export function toApiError(status: number, body: unknown): ApiError {
  const b = body as Partial<ApiErrorBody> | null | undefined;
  const message = typeof b?.message === 'string' ? b.message : `Request failed (${status})`;
  const details = Array.isArray(b?.details) ? b.details.filter((d) => d && typeof d.path === 'string' && typeof d.message === 'string') : [];
  return new ApiError(status, message, details);
}

/** Maps an API error's field messages onto a form's fields (react-hook-form's `setError`). */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): Partial<Record<F, string>> {
  if (!(error instanceof ApiError)) return {};
  const out: Partial<Record<F, string>> = {};
  for (const field of fields) {
    const message = error.fieldMessage(field);
    if (message) out[field] = message;
  }
  // A 400 or 409 without details often names its field in the message ("slug is taken").
  if (!Object.keys(out).length && (error.status === 400 || error.status === 409)) {
    const named = fields.find((f) => new RegExp(`\\b${f}\\b`, 'i').test(error.message));
    if (named) out[named] = error.message;
  }
  return out;
}
