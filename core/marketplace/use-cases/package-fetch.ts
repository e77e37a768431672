import { createHash } from 'node:crypto';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '../../shared/errors';
import type { PluginManifest } from '../../plugins/domain/manifest';
import type { PluginPackageReader } from '../../plugins/ports/plugin-package-reader.port';
import { readPluginZip } from '../../plugins/use-cases/plugin-package';
import { compareVersions, incompatibility, isSemver, newestCompatible } from '../domain/versions';
import type { CatalogPlugin, CatalogVersion, MarketplaceCatalog } from '../ports/marketplace-catalog.port';
import type { PackageDownloader } from '../ports/package-downloader.port';

/** Largest plugin package installed from the marketplace (a manifest and one script of at most 512 KB, zipped). */
export const MAX_PACKAGE_BYTES = 2 * 1024 * 1024;
const CHECKSUM = /^sha256:([0-9a-f]{64})$/i;

export interface PackageFetchDeps {
  catalog: MarketplaceCatalog;
  downloader: PackageDownloader;
  packages: PluginPackageReader;
  platformVersion: string;
}

export interface FetchedPackage {
  item: CatalogPlugin;
  version: CatalogVersion;
  manifest: PluginManifest;
  source: string;
}

/** The version to install: the one asked for (it must exist and run here), else the newest that runs here. */
export async function chooseVersion(deps: PackageFetchDeps, itemId: string, wanted?: string | null): Promise<{ item: CatalogPlugin; version: CatalogVersion }> {
  if (!deps.catalog.configured) throw new NotFoundError('Marketplace plugin', 'No marketplace is configured on this platform');
  const item = await deps.catalog.plugin(itemId);
  if (!item) throw new NotFoundError('Marketplace plugin');
  const versions = await deps.catalog.versions(itemId);
  if (wanted) {
    const version = versions.find((v) => v.version === wanted);
    if (!version) throw new NotFoundError('Marketplace plugin version', `The marketplace plugin has no version ${wanted}`);
    const why = incompatibility(version, deps.platformVersion);
    if (why) throw new ConflictError(`Not compatible: ${why}`);
    return { item, version };
  }
  const version = newestCompatible(versions, deps.platformVersion);
  if (!version) throw new ConflictError(`No released version of ${item.name} runs on platform ${deps.platformVersion}`);
  return { item, version };
}

/**
 * Downloads a version's package and installs nothing: its size and `sha256:` checksum must match what the
 * marketplace published, and the ZIP must be a valid plugin package whose manifest names that version.
 */
export async function fetchPackage(deps: PackageFetchDeps, item: CatalogPlugin, version: CatalogVersion): Promise<FetchedPackage> {
  const checksum = CHECKSUM.exec(version.checksum);
  if (!checksum) throw new UpstreamError(`The marketplace published version ${version.version} without a sha256 checksum`, 502);
  if (!Number.isInteger(version.fileSize) || version.fileSize <= 0) throw new UpstreamError(`The marketplace published version ${version.version} without its size`, 502);
  if (version.fileSize > MAX_PACKAGE_BYTES) throw ValidationError.field('fileSize', `The package is ${version.fileSize} bytes; packages are limited to ${MAX_PACKAGE_BYTES} bytes`);
  const bytes = await deps.downloader.download(version.downloadUrl, version.fileSize);
  if (bytes.length !== version.fileSize) throw ValidationError.field('fileSize', `The downloaded package is ${bytes.length} bytes, not the ${version.fileSize} published; it was not installed`);
  const digest = createHash('sha256').update(bytes).digest('hex');
  if (digest !== checksum[1]!.toLowerCase()) throw ValidationError.field('checksum', 'The downloaded package does not match its published sha256 checksum; it was not installed');
  const { manifest, source } = await readPluginZip(deps.packages, bytes);
  if (!isSemver(manifest.version) || compareVersions(manifest.version, version.version) !== 0) {
    throw ValidationError.field('manifest.version', `The package's manifest says version ${manifest.version}, not ${version.version}`);
  }
  return { item, version, manifest, source };
}

/** The private package key of a marketplace item installed into one application (PluginRepository.saveImported). */
export const importKey = (itemId: string, applicationId: string) => `marketplace:${itemId}:${applicationId}`;
