import type { Context } from 'koa';

/** An AbortController that fires when the client goes away before the response is finished. */
export function abortOnDisconnect(ctx: Context): AbortController {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller;
}

/**
 * Writes events as Server-Sent Events, each flushed the moment it is produced (no buffering, Nagle
 * off). The response is taken out of Koa's hands: errors after the first byte travel as events.
 */
export async function writeSse(ctx: Context, events: AsyncIterable<object>, headers: Record<string, string> = {}): Promise<void> {
  ctx.status = 200;
  ctx.respond = false;
  const res = ctx.res;
  res.socket?.setNoDelay(true);
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'X-Request-Id': String(ctx.state.requestId ?? ''),
    ...Object.fromEntries(Object.entries(ctx.response.headers).map(([k, v]) => [k, String(v)])),
    ...headers,
  });
  res.flushHeaders();
  try {
    for await (const event of events) {
      if (res.destroyed) break;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
    }
  } catch {
    if (!res.destroyed) res.write(`data: ${JSON.stringify({ type: 'error', message: 'The stream failed' })}\n\n`);
  } finally {
    if (!res.destroyed) res.end();
  }
}
