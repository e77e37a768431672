import { createServer } from 'node:http';
import Koa from 'koa';

/**
 * The floor to compare against: a bare Koa app that forwards a chat request to the emulator and
 * relays the answer (JSON, or the SSE stream chunk by chunk), with no auth, validation or storage.
 */
void (async () => {
  const upstream = process.env.BENCH_UPSTREAM!; // e.g. http://127.0.0.1:4010/provider_a/v1
  const app = new Koa();
  app.use(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const res = await fetch(`${upstream}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-bench-0000' },
      body: Buffer.concat(chunks),
    });
    if (ctx.path === '/stream') {
      ctx.respond = false;
      ctx.res.socket?.setNoDelay(true);
      ctx.res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const reader = res.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        ctx.res.write(value);
      }
      ctx.res.end();
      return;
    }
    ctx.status = res.status;
    ctx.type = 'application/json';
    ctx.body = Buffer.from(await res.arrayBuffer());
  });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.send!({ url: `http://127.0.0.1:${address.port}` });
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
})();
