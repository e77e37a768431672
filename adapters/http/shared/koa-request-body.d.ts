import 'koa';

declare module 'koa' {
  interface Request {
    /** Set by the JSON body middleware (or a multipart parser); untrusted until a use case validates it. */
    body?: unknown;
  }
}
