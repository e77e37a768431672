import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ConflictError, NotFoundError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { num, validate } from '../../shared/validation';
import type { PluginPackageReader } from '../../plugins/ports/plugin-package-reader.port';
import type { Version } from '../domain/item';
import { downloadUrlProblem } from '../domain/links';
import { CHECKSUM, checksumOf, MAX_PACKAGE_BYTES } from '../domain/package';
import { compareSemVer, isPrerelease, isSemVer, newestFirst, withinBounds } from '../domain/semver';
import { toVersionView, type VersionView } from '../domain/views';
import type { CatalogRepository, NewVersion } from '../ports/marketplace-repository.port';
import { decodePackage, validatedPluginZip } from './package-input';
import { managedItem, visibleItem } from './marketplace-access';

/** Where a version's stored package is served, for `downloadUrl`. */
export type PackageUrl = (itemId: string, version: string) => string;

export const versionUrlOf = (packageUrl: PackageUrl, v: Version): string | null => (v.hasPackage ? packageUrl(v.itemId, v.version) : v.externalUrl);

const semverField = (name: string) =>
  yup.string().strict().typeError(`${name} must be a SemVer version such as 1.2.0`).test('semver', `${name} must be a SemVer version such as 1.2.0 (no leading zeros, three numbers)`, (v) => v === undefined || isSemVer(v));

const isSemVerText = (v: unknown): v is string => typeof v === 'string' && isSemVer(v);

export const compatibilitySchema = yup
  .object({
    minPlatformVersion: semverField('compatibility.minPlatformVersion').nullable(),
    maxPlatformVersion: semverField('compatibility.maxPlatformVersion').nullable(),
  })
  .default(undefined)
  // yup runs this beside the fields' own tests, so a bound that is not SemVer reaches it too: that one is the
  // field's error, and the order is checked only between two versions.
  .test('bounds', 'compatibility.minPlatformVersion must not be above compatibility.maxPlatformVersion', (c) =>
    !isSemVerText(c?.minPlatformVersion) || !isSemVerText(c?.maxPlatformVersion) || compareSemVer(c.minPlatformVersion, c.maxPlatformVersion) <= 0,
  );

const publishSchema = yup.object({
  version: yup.string().strict().typeError('version must be a SemVer version such as 1.2.0').required('version is required'),
  changelog: yup.string().strict().typeError('changelog must be text').max(10_000, 'changelog must be at most 10000 characters'),
  downloadUrl: yup.string().strict().typeError('downloadUrl must be a URL').max(2048, 'downloadUrl must be at most 2048 characters'),
  fileSize: num().typeError('fileSize must be a whole number of bytes').integer('fileSize must be a whole number of bytes').min(1).max(MAX_PACKAGE_BYTES * 100),
  checksum: yup.string().strict().typeError('checksum must be text').matches(CHECKSUM, 'checksum must be sha256: followed by 64 lower-case hex digits'),
  compatibility: compatibilitySchema,
  package: yup.mixed(),
});

/** The version every listing shows for an item: its newest release, or its newest prerelease when it has no release. */
export function headlineVersion(versions: string[]): string {
  const sorted = [...versions].sort((a, b) => compareSemVer(b, a));
  return sorted.find((v) => !isPrerelease(v)) ?? sorted[0]!;
}

export class ListVersionsUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; platformVersion: string }) {}

  async execute(id: string, actor: Actor | undefined, packageUrl: PackageUrl): Promise<VersionView[]> {
    const item = await visibleItem(this.deps.catalog, 'plugin', id, actor);
    const versions = newestFirst(await this.deps.catalog.versions(item.id));
    return versions.map((v) => toVersionView(v, 'plugin', versionUrlOf(packageUrl, v), withinBounds(this.deps.platformVersion, v)));
  }
}

export class GetVersionUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; platformVersion: string }) {}

  async execute(id: string, version: string, actor: Actor | undefined, packageUrl: PackageUrl): Promise<VersionView> {
    const item = await visibleItem(this.deps.catalog, 'plugin', id, actor);
    const v = isSemVer(version) ? await this.deps.catalog.findVersion(item.id, version) : null;
    if (!v) throw new NotFoundError('Version');
    return toVersionView(v, 'plugin', versionUrlOf(packageUrl, v), withinBounds(this.deps.platformVersion, v));
  }
}

/**
 * Publishes a version of a plugin (its author or an administrator): SemVer, not yet published (409), with the
 * package sent base64-encoded (validated as a local plugin, sized and checksummed here) or hosted at a public
 * https `downloadUrl` with its `fileSize` and `checksum`.
 */
export class PublishVersionUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; packages: PluginPackageReader; platformVersion: string }) {}

  async execute(id: string, body: unknown, actor: Actor | undefined, packageUrl: PackageUrl): Promise<VersionView> {
    const { item, actor: publisher } = await managedItem(this.deps.catalog, 'plugin', id, actor);
    const input = await validate(publishSchema, body);
    if (!isSemVer(input.version)) throw ValidationError.field('version', 'version must be a SemVer version such as 1.2.0 (no leading zeros, three numbers)');
    let version: NewVersion;
    const common = {
      version: input.version,
      changelog: input.changelog ?? '',
      minPlatformVersion: input.compatibility?.minPlatformVersion ?? null,
      maxPlatformVersion: input.compatibility?.maxPlatformVersion ?? null,
      publishedBy: publisher.userId,
    };
    if (input.package !== undefined) {
      if (input.downloadUrl !== undefined) throw ValidationError.field('downloadUrl', 'send either the package or a downloadUrl, not both');
      const bytes = decodePackage(input.package);
      const checksum = checksumOf(bytes);
      if (input.checksum !== undefined && input.checksum !== checksum) throw ValidationError.field('checksum', `checksum does not match the package (${checksum})`);
      if (input.fileSize !== undefined && input.fileSize !== bytes.length) throw ValidationError.field('fileSize', `fileSize does not match the package (${bytes.length} bytes)`);
      await validatedPluginZip(this.deps.packages, bytes, { name: item.name, version: input.version });
      version = { ...common, externalUrl: null, package: bytes, fileSize: bytes.length, checksum };
    } else if (input.downloadUrl !== undefined) {
      const problem = downloadUrlProblem(input.downloadUrl);
      if (problem) throw ValidationError.field('downloadUrl', problem);
      if (input.fileSize === undefined || input.checksum === undefined) {
        throw ValidationError.field(input.fileSize === undefined ? 'fileSize' : 'checksum', 'a downloadUrl needs the fileSize and checksum of the package it serves');
      }
      version = { ...common, externalUrl: input.downloadUrl, package: null, fileSize: input.fileSize, checksum: input.checksum };
    } else {
      throw ValidationError.field('package', 'send the package (base64-encoded ZIP) or a downloadUrl with fileSize and checksum');
    }
    const existing = await this.deps.catalog.versions(item.id);
    if (existing.some((v) => v.version === input.version)) throw new ConflictError(`Version ${input.version} exists already`);
    const added = await this.deps.catalog.addVersion(item.id, version, headlineVersion([...existing.map((v) => v.version), input.version]));
    return toVersionView(added, 'plugin', versionUrlOf(packageUrl, added), withinBounds(this.deps.platformVersion, added));
  }
}

/** A version's stored package, counted as a download. */
export class DownloadPackageUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}

  async execute(id: string, version: string, actor: Actor | undefined): Promise<{ bytes: Buffer; checksum: string; fileName: string }> {
    const item = await visibleItem(this.deps.catalog, 'plugin', id, actor);
    const v = isSemVer(version) ? await this.deps.catalog.findVersion(item.id, version) : null;
    if (!v) throw new NotFoundError('Version');
    if (!v.hasPackage) throw new NotFoundError('Package', 'This version is hosted elsewhere: see its downloadUrl');
    const bytes = await this.deps.catalog.takePackage(item.id, v.version);
    if (!bytes) throw new NotFoundError('Package');
    return { bytes, checksum: v.checksum ?? checksumOf(bytes), fileName: `${item.name}-${v.version}.zip` };
  }
}

const latestSchema = yup.object({
  platformVersion: semverField('platformVersion'),
  pluginIds: yup
    .array(yup.string().strict().typeError('pluginIds must hold plugin ids').required().test('uuid', 'pluginIds must hold UUIDs', (v) => isUuid(v)))
    .strict()
    .typeError('pluginIds must be an array of plugin ids')
    .required('pluginIds is required')
    .max(500, 'pluginIds may hold at most 500 ids'),
  includePrereleases: yup.boolean().strict().typeError('includePrereleases must be true or false'),
});

/**
 * The newest version of each published plugin among `pluginIds` that the platform version (the given one, or the
 * marketplace's own) lies within the bounds of; releases only unless `includePrereleases`. Plugins without one are
 * left out. The core API's daily update check asks for all its installed plugins at once.
 */
export class LatestCompatibleVersionsUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; platformVersion: string }) {}

  async execute(body: unknown, packageUrl: PackageUrl): Promise<{ platformVersion: string; data: VersionView[] }> {
    const input = await validate(latestSchema, body);
    const platformVersion = input.platformVersion ?? this.deps.platformVersion;
    const ids = [...new Set(input.pluginIds)];
    const versions = await this.deps.catalog.versionsOf('plugin', ids);
    const best = new Map<string, Version>();
    for (const v of newestFirst(versions)) {
      if (best.has(v.itemId) || (!input.includePrereleases && isPrerelease(v.version)) || !withinBounds(platformVersion, v)) continue;
      best.set(v.itemId, v);
    }
    const data: VersionView[] = [];
    for (const v of best.values()) data.push(toVersionView(v, 'plugin', versionUrlOf(packageUrl, v), true));
    return { platformVersion, data };
  }
}
