/** The outcome of checking a stylesheet: its normalised text, or the first rule refused and why. */
export type SanitizedStylesheet = { ok: true; css: string } | { ok: false; rule: string; reason: string };

/**
 * Checks owner-written CSS with a real CSS parser (EXTENSIONS.md): refuses `@import`, `url()` other
 * than `https:` or `data:image/`, `expression(`, `javascript:`, `behavior` and `</style`, in any spelling
 * (escapes, comments); answers the stylesheet re-written from the parse tree.
 */
export interface StylesheetSanitizer {
  sanitize(css: string): SanitizedStylesheet;
}
