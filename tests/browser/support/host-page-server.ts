import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serves the site owner's pages on their own origin (another port than the API), so the widget runs
 * cross-origin exactly as when pasted on a customer site. Every request path is recorded.
 */
export class HostPageServer {
  readonly requestedPaths: string[] = [];
  private readonly pages = new Map<string, string>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<HostPageServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const pages = new HostPageServer(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => {
      const path = new URL(req.url ?? '/', pages.url).pathname;
      pages.requestedPaths.push(path);
      const html = pages.pages.get(path);
      res.writeHead(html === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(html ?? 'not found');
    });
    return pages;
  }

  /** Publishes a page and returns its address. */
  publish(path: string, html: string): string {
    this.pages.set(path, html);
    return this.url + path;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A minimal host page: optional head markup (styles), body markup, then the embed tags. */
export function hostPage(options: { head?: string; body?: string; embeds: string[] }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title>${options.head ?? ''}</head>
<body>${options.body ?? ''}
${options.embeds.join('\n')}
</body></html>`;
}

/** The tag a site owner pastes, pointing at the API's origin. */
export function embedTag(apiUrl: string, attributes: Record<string, string>): string {
  const attrs = Object.entries(attributes)
    .map(([name, value]) => ` data-${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  return `<script src="${apiUrl}/public/widget.js"${attrs} async></script>`;
}
