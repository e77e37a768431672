import type { Clock } from '../../core/shared/clock.port';
import { UnavailableError, UpstreamError } from '../../core/shared/errors';
import type {
  CatalogPlugin, CatalogRequest, CatalogResponse, CatalogVersion, LicenseCheck, MarketplaceCatalog,
} from '../../core/marketplace/ports/marketplace-catalog.port';
import { signActingUser } from '../shared/marketplace-acting-user';

export interface HttpMarketplaceCatalogOptions {
  /** MARKETPLACE_URL: the service's origin (its API is under `/marketplace`). */
  baseUrl: string;
  /** MARKETPLACE_TOKEN: the bearer token there, and the key that signs the acting user. */
  token: string;
  clock: Clock;
  /** How long one call may take before the marketplace counts as down (default 5 s). */
  timeoutMs?: number;
}

/** Largest answer read from the marketplace (a page of 100 items with descriptions fits many times over). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * `MarketplaceCatalog` over the marketplace service's HTTP API: `Authorization: Bearer $MARKETPLACE_TOKEN`,
 * the acting user in signed headers. A refused connection, a reset or a timeout is a 503 naming the
 * marketplace (chat and everything else go on); an answer that is not JSON is a 502.
 */
export class HttpMarketplaceCatalog implements MarketplaceCatalog {
  readonly configured = true;
  private readonly base: string;

  constructor(private readonly options: HttpMarketplaceCatalogOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async forward(req: CatalogRequest): Promise<CatalogResponse> {
    const url = new URL(`${this.base}/marketplace${req.path}`);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.token}`, Accept: 'application/json' };
    if (req.actor) Object.assign(headers, signActingUser(this.options.token, { userId: req.actor.userId, role: req.actor.role }, this.options.clock.now()));
    let body: string | undefined;
    if (req.body !== undefined && req.method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(req.body);
    }
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { method: req.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000) });
      text = await readCapped(res);
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw new UnavailableError(`The marketplace is unavailable (${describe(error)}); try again later`);
    }
    if (res.status === 401) throw new UpstreamError('The marketplace refused the platform\'s credentials', 502);
    let parsed: unknown = null;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new UpstreamError(`The marketplace answered ${res.status} with a body that is not JSON`, 502);
      }
    }
    if (res.status >= 500 && res.status !== 503) throw new UpstreamError(`The marketplace failed (${res.status})`, 502);
    if (res.status === 503) throw new UnavailableError(messageOf(parsed) ?? 'The marketplace is unavailable; try again later');
    return { status: res.status, body: parsed };
  }

  async plugin(id: string): Promise<CatalogPlugin | null> {
    const res = await this.forward({ method: 'GET', path: `/plugins/${encodeURIComponent(id)}` });
    if (res.status === 404) return null;
    const b = this.ok(res) as Record<string, unknown>;
    if (typeof b.id !== 'string' || typeof b.name !== 'string' || typeof b.version !== 'string') throw new UpstreamError('The marketplace answered a plugin without id, name or version', 502);
    return { id: b.id, name: b.name, version: b.version, isPaid: b.isPaid === true };
  }

  async versions(id: string): Promise<CatalogVersion[]> {
    const res = await this.forward({ method: 'GET', path: `/plugins/${encodeURIComponent(id)}/versions` });
    if (res.status === 404) return [];
    const list = this.ok(res);
    if (!Array.isArray(list)) throw new UpstreamError('The marketplace answered versions that are not a list', 502);
    return list.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object').map((v) => ({
      pluginId: String(v.pluginId ?? id),
      version: String(v.version ?? ''),
      changelog: typeof v.changelog === 'string' ? v.changelog : '',
      compatibility: v.compatibility && typeof v.compatibility === 'object' ? (v.compatibility as CatalogVersion['compatibility']) : null,
      downloadUrl: typeof v.downloadUrl === 'string' ? v.downloadUrl : '',
      fileSize: typeof v.fileSize === 'number' ? v.fileSize : -1,
      checksum: typeof v.checksum === 'string' ? v.checksum : '',
    }));
  }

  async validateLicense(pluginId: string, userId: string): Promise<LicenseCheck> {
    // Asked as the platform (no acting user): activation and the re-validation job ask for the installation's owner.
    const res = await this.forward({ method: 'GET', path: '/licenses/validate', query: { pluginId, userId } });
    const b = this.ok(res) as { valid?: unknown; reason?: unknown };
    return { valid: b.valid === true, ...(typeof b.reason === 'string' ? { reason: b.reason } : {}) };
  }

  private ok(res: CatalogResponse): unknown {
    if (res.status < 200 || res.status >= 300) throw new UpstreamError(`The marketplace answered ${res.status}: ${messageOf(res.body) ?? 'no reason given'}`, 502);
    return res.body ?? {};
  }
}

async function readCapped(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length'));
  if (declared > MAX_ANSWER_BYTES) throw new UpstreamError('The marketplace answered more than 4 MB', 502);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (bytes.length > MAX_ANSWER_BYTES) throw new UpstreamError('The marketplace answered more than 4 MB', 502);
  return bytes.toString('utf8');
}

const messageOf = (body: unknown): string | undefined => {
  const m = (body as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m : undefined;
};

function describe(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string }; code?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'it did not answer in time';
  const code = e?.cause?.code ?? e?.code;
  return code === 'ECONNREFUSED' ? 'connection refused' : code ? `connection failed: ${code}` : 'connection failed';
}
