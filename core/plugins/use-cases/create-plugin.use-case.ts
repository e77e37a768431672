import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { toPluginView, type PluginView } from '../domain/plugin';
import type { PluginPackageReader } from '../ports/plugin-package-reader.port';
import type { PluginRepository } from '../ports/plugin-repository.port';
import { checkedPackage, readPluginZip } from './plugin-package';

/** A package as it arrives: JSON `{ manifest, source }`, or a ZIP holding manifest.json and the main script. */
export type PluginPackageInput = { json: unknown } | { zip: Buffer };

/** Creates a private plugin of the caller from a package whose manifest is checked field by field. */
export class CreatePluginUseCase {
  constructor(private readonly deps: { plugins: PluginRepository; packages: PluginPackageReader }) {}

  async execute(input: PluginPackageInput, actor: Actor): Promise<PluginView> {
    const { manifest, source } = 'zip' in input ? await readPluginZip(this.deps.packages, input.zip) : await fromJson(input.json);
    const plugin = await this.deps.plugins.create({ ownerId: actor.userId, manifest, source });
    return toPluginView(plugin, actor.userId, true);
  }
}

function fromJson(body: unknown) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Request body must be a JSON object { manifest, source }');
  const { manifest, source } = body as { manifest?: unknown; source?: unknown };
  if (manifest === undefined) throw ValidationError.field('manifest', 'manifest is required');
  return checkedPackage(manifest, source);
}
