import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { parseManifest } from '../domain/manifest';
import { MAX_SOURCE_BYTES, toPluginView, type PluginView } from '../domain/plugin';
import type { PluginPackageReader } from '../ports/plugin-package-reader.port';
import type { PluginRepository } from '../ports/plugin-repository.port';

/** A package as it arrives: JSON `{ manifest, source }`, or a ZIP holding manifest.json and the main script. */
export type PluginPackageInput = { json: unknown } | { zip: Buffer };

/** Creates a private plugin of the caller from a package whose manifest is checked field by field. */
export class CreatePluginUseCase {
  constructor(private readonly deps: { plugins: PluginRepository; packages: PluginPackageReader }) {}

  async execute(input: PluginPackageInput, actor: Actor): Promise<PluginView> {
    const { manifest: rawManifest, source } = 'zip' in input ? await this.fromZip(input.zip) : fromJson(input.json);
    const manifest = await parseManifest(rawManifest);
    if (typeof source !== 'string' || source.trim() === '') throw ValidationError.field('source', 'source is required: the plugin script as text');
    if (Buffer.byteLength(source) > MAX_SOURCE_BYTES) throw ValidationError.field('source', `source must be at most ${MAX_SOURCE_BYTES / 1024} KB`);
    const plugin = await this.deps.plugins.create({ ownerId: actor.userId, manifest, source });
    return toPluginView(plugin, actor.userId, true);
  }

  private async fromZip(zip: Buffer): Promise<{ manifest: unknown; source: unknown }> {
    const files = await this.deps.packages.read(zip);
    const manifestText = files.get('manifest.json');
    if (manifestText === undefined) throw ValidationError.field('manifest', 'the package holds no manifest.json at its root');
    let manifest: unknown;
    try {
      manifest = JSON.parse(manifestText);
    } catch {
      throw ValidationError.field('manifest', 'manifest.json is not valid JSON');
    }
    const main = (manifest as { main?: unknown } | null)?.main;
    const source = typeof main === 'string' ? files.get(main) : undefined;
    if (typeof main === 'string' && source === undefined) throw ValidationError.field('manifest.main', `manifest.main names ${main}, which the package does not hold`);
    return { manifest, source };
  }
}

function fromJson(body: unknown): { manifest: unknown; source: unknown } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ValidationError('Request body must be a JSON object { manifest, source }');
  const { manifest, source } = body as { manifest?: unknown; source?: unknown };
  if (manifest === undefined) throw ValidationError.field('manifest', 'manifest is required');
  return { manifest, source };
}
