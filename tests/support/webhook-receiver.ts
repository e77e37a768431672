import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A local webhook receiver for tests: keeps every request, counts connections, answers with what
 * `respond` says (default 204), and verifies signatures with the `standardwebhooks` package.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  connections = 0;
  respond: (req: Received, n: number) => number | 'hang' | { redirect: string } = () => 204;
  private server!: Server;
  url = '';

  static async start(host = '127.0.0.1'): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => receiver.handle(req, res));
    receiver.server.on('connection', () => receiver.connections++);
    await new Promise<void>((resolve) => receiver.server.listen(0, host, resolve));
    const { port } = receiver.server.address() as AddressInfo;
    receiver.url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/hook`;
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      this.received.push(got);
      const answer = this.respond(got, this.received.length);
      if (answer === 'hang') return; // never answers; the sender must cut it off
      if (typeof answer === 'object') {
        res.writeHead(302, { location: answer.redirect }).end();
        return;
      }
      res.writeHead(answer).end();
    });
  }

  /** The events received, each verified against `secret` (throws on a bad signature). */
  verified(secret: string): Array<{ id: string; type: string; timestamp: string; data: Record<string, unknown> }> {
    const wh = new Webhook(secret);
    return this.received.map((r) => wh.verify(r.body, r.headers) as { id: string; type: string; timestamp: string; data: Record<string, unknown> });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
