import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readText, send } from '../../../adapters/clients/keep-alive-http';

/**
 * A kept-alive connection the server drops while it sits idle fails the next request handed to it with ECONNRESET
 * before any answer; `send` sends that request once more on another connection (issue 49: streams that ran to their
 * end now give their connection back to the pool instead of destroying it).
 */
describe('send over kept-alive connections', () => {
  let server: Server;
  let url: string;
  const seen = new Map<Socket, number>();
  let received = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      received++;
      const count = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, count);
      // The second request on a connection: the server resets it unanswered, as one that closed it while idle would.
      if (count === 2) return void req.socket.resetAndDestroy();
      res.end(`answer ${received}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends a request that met a reset reused connection again, on a new one, and the caller gets its answer', async () => {
    const first = await send(url, { method: 'POST', headers: {}, body: 'one' });
    expect(await readText(first)).toBe('answer 1');
    const second = await send(url, { method: 'POST', headers: {}, body: 'two' });
    expect(second.statusCode).toBe(200);
    expect(await readText(second)).toBe('answer 3');
    expect(received).toBe(3);
  });

  it('does not send again once the caller has aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(send(url, { method: 'GET', headers: {}, signal: controller.signal })).rejects.toThrow();
  });
});
