import type { Container } from 'inversify';
import { DOC_EXAMPLES, docExamplePackage } from '../../adapters/plugins/doc-examples';
import { signActingUser } from '../../adapters/shared/marketplace-acting-user';
import type { ItemKind, ItemStatus } from '../../core/marketplace/domain/item';
import { ListMySubmissionsUseCase, ReviewSubmissionUseCase, SetFeaturedUseCase } from '../../core/marketplace/use-cases/moderation.use-cases';
import { SubmitPluginUseCase, SubmitThemeUseCase } from '../../core/marketplace/use-cases/submit.use-cases';
import type { Actor } from '../../core/shared/actor';
import { ConflictError } from '../../core/shared/errors';
import { PRESETS } from '../../core/themes/domain/presets';
import { TOKENS, resolve } from '../shared/tokens';
import { MARKETPLACE_TOKENS } from './modules/marketplace.tokens';

/** Who the seeded items are by: the platform itself, acting as an administrator to publish them. */
export const SEED_AUTHOR: Actor = { userId: '00000000-0000-4000-8000-0000000005ed', role: 'admin' };

const THEME_CATEGORY: Record<string, string> = { default: 'business', dark: 'dashboard', minimal: 'minimal', vibrant: 'creative' };
const PLUGIN_CATEGORY: Record<string, string> = { 'profanity-filter': 'security', 'conversation-counter': 'analytics' };

/** One of the seed author's items as the catalog shows it. */
export interface SeededItem {
  kind: ItemKind;
  id: string;
  slug: string;
  status: ItemStatus;
  featured: boolean;
}

/**
 * The catalog operations the seed needs, as the seed author: in this process on the database (`catalogInProcess`), or
 * over a running marketplace service's API (`catalogOverHttp`), so that a seed never opens an embedded database that a
 * running process holds.
 */
export interface SeedCatalog {
  mine(): Promise<SeededItem[]>;
  /** Submits an item; 'taken' when its name is someone else's already. */
  submit(kind: ItemKind, body: Record<string, unknown>): Promise<{ id: string } | 'taken'>;
  approve(kind: ItemKind, id: string): Promise<void>;
  feature(kind: ItemKind, id: string): Promise<void>;
}

export interface SeedResult {
  created: string[];
  /** Items an earlier, interrupted run submitted but did not publish: published now. */
  completed: string[];
  present: string[];
}

/**
 * Loads the example items into the catalog, published and featured: the two example plugins of the plugin guide
 * (their packages built from docs/plugins.md) and the four theme presets as themes. Items already published are left
 * alone, so running it again changes nothing; an item an interrupted run left pending is published now; an item an
 * administrator rejected stays rejected.
 */
export async function seedCatalog(catalog: SeedCatalog): Promise<SeedResult> {
  const result: SeedResult = { created: [], completed: [], present: [] };
  const mine = await catalog.mine();
  const publish = async (kind: ItemKind, slug: string, body: () => Promise<Record<string, unknown>>) => {
    const label = `${kind} ${slug}`;
    const existing = mine.find((i) => i.kind === kind && i.slug === slug);
    if (existing?.status === 'pending') {
      await catalog.approve(kind, existing.id);
      await catalog.feature(kind, existing.id);
      result.completed.push(label);
      return;
    }
    if (existing) {
      if (existing.status === 'published' && !existing.featured) await catalog.feature(kind, existing.id);
      result.present.push(label);
      return;
    }
    const submitted = await catalog.submit(kind, await body());
    if (submitted === 'taken') {
      result.present.push(label);
      return;
    }
    await catalog.approve(kind, submitted.id);
    await catalog.feature(kind, submitted.id);
    result.created.push(label);
  };
  for (const name of DOC_EXAMPLES) {
    await publish('plugin', name, async () => {
      const { manifest, zip } = await docExamplePackage(name);
      return {
        name,
        slug: name,
        version: manifest.version,
        author: 'Platform team',
        category: PLUGIN_CATEGORY[name],
        changelog: 'The example of the plugin guide',
        package: zip.toString('base64'),
      };
    });
  }
  for (const preset of PRESETS) {
    await publish('theme', preset.id, async () => ({
      name: preset.id,
      slug: preset.id,
      version: '1.0.0',
      displayName: preset.name,
      description: preset.description,
      author: 'Platform team',
      category: THEME_CATEGORY[preset.id],
      manifest: { extend: preset.id },
      defaultStyles: {},
    }));
  }
  return result;
}

/** The seed on the marketplace app's use cases, in this process (the database is this process's). */
export function catalogInProcess(c: Container): SeedCatalog {
  const catalog = resolve(c, MARKETPLACE_TOKENS.Catalog);
  const submitPlugin = new SubmitPluginUseCase({ catalog, packages: resolve(c, MARKETPLACE_TOKENS.Packages) });
  const submitTheme = new SubmitThemeUseCase({ catalog });
  const moderation = new ReviewSubmissionUseCase({ catalog, clock: resolve(c, TOKENS.Clock) });
  const featuring = new SetFeaturedUseCase({ catalog });
  const mine = new ListMySubmissionsUseCase({ catalog });
  return {
    mine: async () => (await mine.execute(SEED_AUTHOR)).map((i) => ({ kind: i.kind, id: i.id, slug: i.slug, status: i.status as ItemStatus, featured: i.featured })),
    async submit(kind, body) {
      try {
        return await (kind === 'plugin' ? submitPlugin : submitTheme).execute(body, SEED_AUTHOR);
      } catch (error) {
        if (error instanceof ConflictError) return 'taken';
        throw error;
      }
    },
    async approve(kind, id) {
      await moderation.approve(kind, id, SEED_AUTHOR);
    },
    async feature(kind, id) {
      await featuring.execute(kind, id, { featured: true }, SEED_AUTHOR);
    },
  };
}

/**
 * The seed over a running marketplace service's API, as the core API calls it: `Authorization: Bearer
 * $MARKETPLACE_TOKEN` and the seed author (an administrator) in acting-user headers signed with the same token.
 */
export function catalogOverHttp(baseUrl: string, token: string): SeedCatalog {
  const base = baseUrl.replace(/\/+$/, '');
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      Accept: 'application/json',
      ...signActingUser(token, { userId: SEED_AUTHOR.userId, role: SEED_AUTHOR.role }, new Date()),
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${base}/marketplace${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    if (res.status === 401) {
      throw new Error(`the marketplace at ${base} refused MARKETPLACE_TOKEN: run the seed with the MARKETPLACE_TOKEN (or DATA_DIR) the services run with`);
    }
    return { status: res.status, body: parsed };
  };
  const expect = (res: { status: number; body: unknown }, what: string, ok: number[]) => {
    if (ok.includes(res.status)) return res.body;
    const message = (res.body as { message?: unknown } | null)?.message;
    throw new Error(`the marketplace at ${base} answered ${res.status} to ${what}${typeof message === 'string' ? `: ${message}` : ''}`);
  };
  const plural = (kind: ItemKind) => (kind === 'plugin' ? 'plugins' : 'themes');
  return {
    async mine() {
      const list = expect(await call('GET', '/submissions'), 'the list of submissions', [200]);
      return (Array.isArray(list) ? list : []) as SeededItem[];
    },
    async submit(kind, body) {
      const res = await call('POST', `/submit/${kind}`, body);
      if (res.status === 409) return 'taken';
      return expect(res, `the submission of ${kind} ${String(body.slug)}`, [201]) as { id: string };
    },
    async approve(kind, id) {
      // 409: approved meanwhile (another seed), which is what this wanted.
      expect(await call('POST', `/admin/${plural(kind)}/${id}/approve`), `the approval of ${kind} ${id}`, [200, 409]);
    },
    async feature(kind, id) {
      expect(await call('PUT', `/admin/${plural(kind)}/${id}/featured`, { featured: true }), `featuring ${kind} ${id}`, [200]);
    },
  };
}

/** The seed in this process, as `seedCatalog(catalogInProcess(c))`. */
export function seedMarketplace(c: Container): Promise<SeedResult> {
  return seedCatalog(catalogInProcess(c));
}
