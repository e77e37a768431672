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
  const details = Array.isArray(b?.details) ? b.details.filter((d) => d && typeof d.path === 'string' && typeof d.message === 'string') : [];
  const paths = details.map((d) => d.path);
  const message = typeof b?.message === 'string' ? inWords(b.message, paths) : `Request failed (${status})`;
  return new ApiError(
    status,
    message,
    details.map((d) => ({ path: d.path, message: inWords(d.message, paths) })),
  );
}

/** Field names whose words are not their spelling split at capitals. */
const FIELD_WORDS: Record<string, string> = {
  topP: 'Top P',
  modelId: 'Model',
  apiKey: 'API key',
  url: 'Address',
  baseUrl: 'Address',
  customCss: 'Custom CSS',
  trafficPercent: 'Traffic share',
  isActive: 'Active',
  isDefault: 'Default',
  teamId: 'Team',
  applicationId: 'Application',
  entityId: 'Entity ID',
  ssoUrl: 'Sign-in address',
  idpCertificate: 'Identity provider certificate',
};

/** The first names of the API's nested fields, whose dotted paths open its messages (`saml.certificate is …`). */
const PATH_ROOTS = new Set(['settings', 'saml', 'oidc', 'attributeMapping', 'manifest', 'source', 'metadata', 'variables', 'secrets', 'branding', 'theme', 'customHeaders', 'config', 'input', 'steps']);

/** A field path as a person reads it: `settings.topP` is "Top P", `allowedOrigins[1]` is "Allowed origins". */
export function fieldLabel(path: string): string {
  const last = path.replace(/\[\d+\]/g, '').split('.').filter(Boolean).at(-1) ?? path;
  if (Object.hasOwn(FIELD_WORDS, last)) return FIELD_WORDS[last]!;
  // A name the user gave (a header such as `Set-Cookie`, a variable) is shown as it is.
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(last)) return last;
  const words = last.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * The API names fields by their JSON paths ("settings.topP must be at most 1"), which is right for a program and
 * wrong for a person: the console shows the field's words instead ("Top P must be at most 1"). The paths the error's
 * details name are replaced wherever they stand, and a dotted path that opens a sentence ("attributeMapping.email is
 * required") is too; anything else is left as the API wrote it.
 */
export function inWords(message: string, paths: readonly string[] = []): string {
  let out = message;
  for (const path of [...new Set(paths)].filter((p) => /[.[]/.test(p) || /[A-Z]/.test(p)).sort((a, b) => b.length - a.length)) {
    out = out.split(path).join(fieldLabel(path));
  }
  out = out.replace(/(^|[.;:]\s+)([a-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*|\[\d+\])+)(?=\s(?:must|is|are|cannot|may|should|has|does)\b)/g, (m, lead: string, path: string) =>
    // A file name ("returns.docx is too large") is no path: only camelCase, an index or a known object counts.
    /[A-Z[]/.test(path) || PATH_ROOTS.has(path.split(/[.[]/)[0]!) ? lead + fieldLabel(path) : m,
  );
  return out;
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
