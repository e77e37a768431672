import { ValidationError } from '../../shared/errors';
import { parseManifest, type PluginManifest } from '../domain/manifest';
import { MAX_SOURCE_BYTES } from '../domain/plugin';
import type { PluginPackageReader } from '../ports/plugin-package-reader.port';

/**
 * A plugin ZIP checked as a local plugin is (EXTENSIONS.md): a readable archive within the reader's limits, a
 * manifest.json at its root that passes field by field, and the main script it names, within the source limit.
 * The marketplace validates submitted packages with this same function.
 */
export async function readPluginZip(packages: PluginPackageReader, zip: Buffer): Promise<{ manifest: PluginManifest; source: string }> {
  const files = await packages.read(zip);
  const manifestText = files.get('manifest.json');
  if (manifestText === undefined) throw ValidationError.field('manifest', 'the package holds no manifest.json at its root');
  let raw: unknown;
  try {
    raw = JSON.parse(manifestText);
  } catch {
    throw ValidationError.field('manifest', 'manifest.json is not valid JSON');
  }
  const main = (raw as { main?: unknown } | null)?.main;
  const source = typeof main === 'string' ? files.get(main) : undefined;
  if (typeof main === 'string' && source === undefined) throw ValidationError.field('manifest.main', `manifest.main names ${main}, which the package does not hold`);
  return checkedPackage(raw, source);
}

/** A manifest and a source checked as one plugin package. */
export async function checkedPackage(rawManifest: unknown, source: unknown): Promise<{ manifest: PluginManifest; source: string }> {
  const manifest = await parseManifest(rawManifest);
  if (typeof source !== 'string' || source.trim() === '') throw ValidationError.field('source', 'source is required: the plugin script as text');
  if (Buffer.byteLength(source) > MAX_SOURCE_BYTES) throw ValidationError.field('source', `source must be at most ${MAX_SOURCE_BYTES / 1024} KB`);
  return { manifest, source };
}
