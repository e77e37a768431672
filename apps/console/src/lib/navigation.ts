/** A path inside the console to return to after signing in; anything else (other origins, `//host`) is refused. */
export function safeNext(next: string | null | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/';
}
