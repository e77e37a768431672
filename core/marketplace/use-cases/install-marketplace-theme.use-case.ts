import type { ThemeView } from '../../themes/domain/theme';
import type { CreateThemeUseCase } from '../../themes/use-cases/create-theme.use-case';
import type { Actor } from '../../shared/actor';
import { NotFoundError, PaymentRequiredError, UpstreamError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import type { MarketplaceCatalog } from '../ports/marketplace-catalog.port';

const SECTIONS = ['colors', 'typography', 'layout', 'custom'] as const;
const PRESETS = new Set(['default', 'dark', 'minimal', 'vibrant']);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `POST /api/marketplace/themes/:id/install`: makes a published marketplace theme one of the caller's
 * themes, selectable for any of their applications (`POST /api/applications/:id/theme`): its definition
 * (or its `defaultStyles` over the preset its manifest `extend`s), validated like any theme. A paid theme
 * needs a valid license.
 */
export class InstallMarketplaceThemeUseCase {
  constructor(private readonly deps: { catalog: MarketplaceCatalog; createTheme: Pick<CreateThemeUseCase, 'execute'> }) {}

  async execute(id: unknown, actor: Actor): Promise<ThemeView> {
    if (!isUuid(id)) throw new NotFoundError('Marketplace theme');
    const res = await this.deps.catalog.forward({ method: 'GET', path: `/themes/${id}` });
    if (res.status === 404) throw new NotFoundError('Marketplace theme');
    if (res.status !== 200 || !isObject(res.body)) throw new UpstreamError(`The marketplace answered ${res.status} for the theme`, 502);
    const theme = res.body;
    if (theme.isPaid === true && this.deps.catalog.configured) {
      const license = await this.deps.catalog.validateLicense(id, actor.userId);
      if (!license.valid) throw new PaymentRequiredError(`This paid theme needs a valid license${license.reason ? `: ${license.reason}` : ''}`);
    }
    // The whole definition when the marketplace gives it, else the overrides over the preset the manifest names.
    const styles = isObject(theme.definition) ? theme.definition : isObject(theme.defaultStyles) ? theme.defaultStyles : {};
    const manifest = isObject(theme.manifest) ? theme.manifest : {};
    const input: Record<string, unknown> = {
      name: String(theme.displayName ?? theme.name ?? 'Marketplace theme').slice(0, 100),
      description: String(theme.description ?? '').slice(0, 1000),
      extend: typeof manifest.extend === 'string' && PRESETS.has(manifest.extend) ? manifest.extend : 'default',
    };
    for (const section of SECTIONS) if (isObject(styles[section])) input[section] = styles[section];
    return this.deps.createTheme.execute(input, actor);
  }
}
