import type { Container } from 'inversify';
import { DOC_EXAMPLES, docExamplePackage } from '../../adapters/plugins/doc-examples';
import type { ItemKind } from '../../core/marketplace/domain/item';
import { ReviewSubmissionUseCase, SetFeaturedUseCase } from '../../core/marketplace/use-cases/moderation.use-cases';
import { SubmitPluginUseCase, SubmitThemeUseCase } from '../../core/marketplace/use-cases/submit.use-cases';
import type { Actor } from '../../core/shared/actor';
import { ConflictError } from '../../core/shared/errors';
import { PRESETS } from '../../core/themes/domain/presets';
import { TOKENS, resolve } from '../shared/tokens';
import { MARKETPLACE_TOKENS } from './modules/marketplace.module';

/** Who the seeded items are by: the platform itself, acting as an administrator to publish them. */
export const SEED_AUTHOR: Actor = { userId: '00000000-0000-4000-8000-0000000005ed', role: 'admin' };

const THEME_CATEGORY: Record<string, string> = { default: 'business', dark: 'dashboard', minimal: 'minimal', vibrant: 'creative' };
const PLUGIN_CATEGORY: Record<string, string> = { 'profanity-filter': 'security', 'conversation-counter': 'analytics' };

/**
 * Loads the example items into the catalog, published and featured: the two example plugins of the plugin guide
 * (their packages built from docs/plugins.md) and the four theme presets as themes. Items already there (by name)
 * are left alone, so running it again changes nothing.
 */
export async function seedMarketplace(c: Container): Promise<{ created: string[]; present: string[] }> {
  const catalog = resolve(c, MARKETPLACE_TOKENS.Catalog);
  const submitPlugin = new SubmitPluginUseCase({ catalog, packages: resolve(c, MARKETPLACE_TOKENS.Packages) });
  const submitTheme = new SubmitThemeUseCase({ catalog });
  const moderation = new ReviewSubmissionUseCase({ catalog, clock: resolve(c, TOKENS.Clock) });
  const featuring = new SetFeaturedUseCase({ catalog });
  const created: string[] = [];
  const present: string[] = [];
  const publish = async (kind: ItemKind, name: string, submit: () => Promise<{ id: string }>) => {
    try {
      const { id } = await submit();
      await moderation.approve(kind, id, SEED_AUTHOR);
      await featuring.execute(kind, id, { featured: true }, SEED_AUTHOR);
      created.push(`${kind} ${name}`);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      present.push(`${kind} ${name}`);
    }
  };
  for (const name of DOC_EXAMPLES) {
    const { manifest, zip } = await docExamplePackage(name);
    await publish('plugin', name, () =>
      submitPlugin.execute(
        {
          name,
          slug: name,
          version: manifest.version,
          author: 'Platform team',
          category: PLUGIN_CATEGORY[name],
          changelog: 'The example of the plugin guide',
          package: zip.toString('base64'),
        },
        SEED_AUTHOR,
      ),
    );
  }
  for (const preset of PRESETS) {
    await publish('theme', preset.id, () =>
      submitTheme.execute(
        {
          name: preset.id,
          slug: preset.id,
          version: '1.0.0',
          displayName: preset.name,
          description: preset.description,
          author: 'Platform team',
          category: THEME_CATEGORY[preset.id],
          manifest: { extend: preset.id },
          defaultStyles: {},
        },
        SEED_AUTHOR,
      ),
    );
  }
  return { created, present };
}
