import { isOrigin } from '../../applications/domain/application-fields';
import type { Clock } from '../../shared/clock.port';
import type { OriginRegistry } from '../ports/origin-registry.port';

/** How long an answer is reused: the delay before a newly allowed (or removed) origin passes CORS preflight. */
export const LISTED_ORIGIN_TTL_MS = 10_000;
const MAX_ENTRIES = 5_000;

/**
 * Whether an origin may receive CORS headers from the public API before its application is known
 * (preflights, refusals): some application must list it. The answer is cached briefly per origin.
 */
export class ListedOrigins {
  private readonly cache = new Map<string, { listed: boolean; expiresAt: number }>();

  constructor(private readonly deps: { registry: OriginRegistry; clock: Clock; ttlMs?: number }) {}

  async isListed(origin: string): Promise<boolean> {
    if (origin.length > 300 || !isOrigin(origin)) return false;
    const now = this.deps.clock.now().getTime();
    const cached = this.cache.get(origin);
    if (cached && cached.expiresAt > now) return cached.listed;
    const listed = await this.deps.registry.isListedByAnyApplication(origin);
    this.cache.delete(origin);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(origin, { listed, expiresAt: now + (this.deps.ttlMs ?? LISTED_ORIGIN_TTL_MS) });
    return listed;
  }
}
