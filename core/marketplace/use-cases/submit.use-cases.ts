import * as yup from 'yup';
import type { Actor } from '../../shared/actor';
import { ValidationError } from '../../shared/errors';
import { num, validate } from '../../shared/validation';
import { SLUG } from '../../plugins/domain/manifest';
import type { PluginPackageReader } from '../../plugins/ports/plugin-package-reader.port';
import { presetById, PRESETS } from '../../themes/domain/presets';
import { mergeTheme, parseOverrides, validateDefinition } from '../../themes/domain/theme-rules';
import { CATEGORIES, DEFAULT_CATEGORY, type ItemKind } from '../domain/item';
import { isWebUrl } from '../domain/links';
import { checksumOf } from '../domain/package';
import { isSemVer } from '../domain/semver';
import { toItemDetailView, type ItemDetailView } from '../domain/views';
import type { CatalogRepository, NewItem, NewVersion } from '../ports/marketplace-repository.port';
import { signedIn } from './marketplace-access';
import { decodePackage, validatedPluginZip } from './package-input';
import { compatibilitySchema } from './versions.use-cases';

const MAX_MANIFEST_BYTES = 16 * 1024;

const url = (name: string) =>
  yup.string().strict().typeError(`${name} must be a URL`).max(2048, `${name} must be at most 2048 characters`).test('url', `${name} must be an http(s) URL`, (v) => v === undefined || isWebUrl(v));

const jsonObject = (name: string) =>
  yup
    .mixed<Record<string, unknown>>()
    .test('object', `${name} must be a JSON object`, (v) => v === undefined || (v !== null && typeof v === 'object' && !Array.isArray(v)))
    .test('size', `${name} must be at most ${MAX_MANIFEST_BYTES / 1024} KB`, (v) => v === undefined || Buffer.byteLength(JSON.stringify(v)) <= MAX_MANIFEST_BYTES);

const submissionSchema = (kind: ItemKind) =>
  yup.object({
    name: yup.string().strict().typeError('name must be text').required('name is required').matches(SLUG, 'name must be a slug (lower-case letters, digits and dashes, at most 64)'),
    slug: yup.string().strict().typeError('slug must be text').required('slug is required').matches(SLUG, 'slug must be URL-friendly (lower-case letters, digits and dashes, at most 64)'),
    version: yup.string().strict().typeError('version must be text').required('version is required').test('semver', 'version must be a SemVer version such as 1.2.0 (no leading zeros, three numbers)', (v) => v === undefined || isSemVer(v)),
    displayName: yup.string().strict().typeError('displayName must be text').trim().max(100, 'displayName must be at most 100 characters'),
    description: yup.string().strict().typeError('description must be text').max(2000, 'description must be at most 2000 characters'),
    author: yup.string().strict().typeError('author must be text').max(100, 'author must be at most 100 characters'),
    authorUrl: url('authorUrl'),
    repositoryUrl: url('repositoryUrl'),
    homepage: url('homepage'),
    iconUrl: url('iconUrl'),
    previewUrl: url('previewUrl'),
    screenshots: yup.array(url('screenshots[]').required()).strict().typeError('screenshots must be an array of URLs').max(10, 'screenshots may hold at most 10 URLs'),
    category: yup.string().strict().typeError('category must be text').oneOf([...CATEGORIES[kind]], `category must be one of ${CATEGORIES[kind].join(', ')}`),
    isPaid: yup.boolean().strict().typeError('isPaid must be true or false'),
    price: num()
      .typeError('price must be a number of US dollars')
      .moreThan(0, 'price must be above 0')
      .max(10_000, 'price must be at most 10000')
      .test('cents', 'price must have at most two decimals', (v) => v === undefined || Math.abs(Math.round(v * 100) - v * 100) < 1e-6),
    changelog: yup.string().strict().typeError('changelog must be text').max(10_000, 'changelog must be at most 10000 characters'),
    compatibility: compatibilitySchema,
    manifest: jsonObject('manifest'),
    defaultStyles: jsonObject('defaultStyles'),
    package: yup.mixed(),
  });

type Submission = yup.InferType<ReturnType<typeof submissionSchema>>;

/** The submitted version, its package stored by the marketplace, sized and checksummed. */
function firstVersion(input: Submission, bytes: Buffer, author: Actor): NewVersion {
  return {
    version: input.version,
    changelog: input.changelog ?? '',
    minPlatformVersion: input.compatibility?.minPlatformVersion ?? null,
    maxPlatformVersion: input.compatibility?.maxPlatformVersion ?? null,
    externalUrl: null,
    package: bytes,
    fileSize: bytes.length,
    checksum: checksumOf(bytes),
    publishedBy: author.userId,
  };
}

function common(kind: ItemKind, input: Submission, author: Actor): Omit<NewItem, 'displayName' | 'description' | 'manifest' | 'defaultStyles'> {
  if (input.isPaid && input.price === undefined) throw ValidationError.field('price', 'price is required when isPaid is true');
  return {
    kind,
    name: input.name,
    slug: input.slug,
    category: input.category ?? DEFAULT_CATEGORY[kind],
    authorId: author.userId,
    authorName: input.author?.trim() ?? '',
    authorUrl: input.authorUrl ?? null,
    homepage: input.homepage ?? null,
    repositoryUrl: input.repositoryUrl ?? null,
    iconUrl: input.iconUrl ?? null,
    previewUrl: kind === 'theme' ? (input.previewUrl ?? null) : null,
    screenshots: input.screenshots ?? [],
    isPaid: input.isPaid === true,
    price: input.isPaid ? input.price! : null,
    version: input.version,
  };
}

export type SubmissionView = ItemDetailView & { fileSize: number; checksum: string };

/**
 * A plugin submitted with its ZIP (base64 in `package`), validated as a local plugin is: its manifest must name
 * the submitted name and version. Stored, sized and checksummed; the plugin waits for review, unlisted.
 */
export class SubmitPluginUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository; packages: PluginPackageReader }) {}

  async execute(body: unknown, actor: Actor | undefined): Promise<SubmissionView> {
    const author = signedIn(actor);
    const input = await validate(submissionSchema('plugin'), body);
    if (input.package === undefined) throw ValidationError.field('package', 'package is required: the plugin ZIP, base64-encoded');
    const bytes = decodePackage(input.package);
    const manifest = await validatedPluginZip(this.deps.packages, bytes, { name: input.name, version: input.version });
    const item = await this.deps.catalog.createWithVersion(
      {
        ...common('plugin', input, author),
        displayName: input.displayName || manifest.displayName,
        description: input.description ?? manifest.description,
        manifest: manifest as unknown as Record<string, unknown>,
        defaultStyles: null,
      },
      firstVersion(input, bytes, author),
    );
    return { ...toItemDetailView(item, []), fileSize: bytes.length, checksum: checksumOf(bytes) };
  }
}

/**
 * A theme submitted with its definition: `defaultStyles` holds overrides of the theme fields (colors, typography,
 * layout, custom variables) merged over the preset named by `manifest.extend` (default `default`), and the result
 * must be a complete, valid theme. Its package is that definition as JSON, sized and checksummed.
 */
export class SubmitThemeUseCase {
  constructor(private readonly deps: { catalog: CatalogRepository }) {}

  async execute(body: unknown, actor: Actor | undefined): Promise<SubmissionView> {
    const author = signedIn(actor);
    const input = await validate(submissionSchema('theme'), body);
    if (input.package !== undefined) throw ValidationError.field('package', 'a theme is submitted as defaultStyles (and manifest), not as a package');
    const extend = input.manifest?.extend ?? 'default';
    const base = typeof extend === 'string' ? presetById(extend) : undefined;
    if (!base) throw ValidationError.field('manifest.extend', `manifest.extend must be one of ${PRESETS.map((p) => p.id).join(', ')}`);
    const overrides = parseOverrides(input.defaultStyles ?? {}, 'defaultStyles.');
    const definition = validateDefinition(mergeTheme(base.definition, overrides), 'defaultStyles.');
    const manifest = { ...(input.manifest ?? {}), extend };
    const bytes = Buffer.from(JSON.stringify({ name: input.name, version: input.version, extend, defaultStyles: overrides, definition }));
    const item = await this.deps.catalog.createWithVersion(
      {
        ...common('theme', input, author),
        displayName: input.displayName || input.name,
        description: input.description ?? '',
        manifest,
        defaultStyles: overrides as Record<string, unknown>,
      },
      firstVersion(input, bytes, author),
    );
    return { ...toItemDetailView(item, []), fileSize: bytes.length, checksum: checksumOf(bytes) };
  }
}
