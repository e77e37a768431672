import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = { status: number; body?: unknown; raw?: Buffer };
export type FakeRoute = (req: SeenRequest) => Answer | null | 'hang' | Promise<Answer | null | 'hang'>;

/**
 * A tiny stand-in for the marketplace service, for the cases the real one cannot be made to show (a
 * marketplace that hangs, answers nonsense, or publishes a package that does not match its checksum).
 * Every request is recorded; `route` answers it (null: 404).
 */
export class FakeMarketplace {
  readonly seen: SeenRequest[] = [];
  route: FakeRoute = () => null;
  private readonly hung = new Set<ServerResponse>();

  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(): Promise<FakeMarketplace> {
    let fake: FakeMarketplace | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void fake!.answer({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    fake = new FakeMarketplace(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return fake;
  }

  private async answer(req: SeenRequest, res: ServerResponse): Promise<void> {
    this.seen.push(req);
    const answer = await this.route(req);
    if (answer === 'hang') {
      this.hung.add(res);
      return;
    }
    const a = answer ?? { status: 404, body: { statusCode: 404, message: 'Not found', error: 'Not Found' } };
    if (a.raw) {
      res.writeHead(a.status, { 'Content-Type': 'application/zip', 'Content-Length': a.raw.length });
      res.end(a.raw);
      return;
    }
    const text = a.body === undefined ? '' : JSON.stringify(a.body);
    res.writeHead(a.status, { 'Content-Type': 'application/json' });
    res.end(text);
  }

  async close(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const sha256 = (bytes: Buffer): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
