import type { PluginManifest } from './manifest';

/** A plugin package owned by a user: private until published (EXTENSIONS.md "Core plugin endpoints"). */
export interface Plugin {
  id: string;
  ownerId: string;
  name: string;
  version: string;
  manifest: PluginManifest;
  source: string;
  published: boolean;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PluginView {
  id: string;
  name: string;
  displayName: string;
  version: string;
  description: string;
  manifest: PluginManifest;
  published: boolean;
  publishedAt: string | null;
  isOwner: boolean;
  /** Only for the owner, or when published. */
  source?: string;
  versions: { version: string; current: boolean }[];
  createdAt: string;
  updatedAt: string;
}

/** Source is shown to its owner and, once published, to anyone who can install it; never another owner's private source. */
export function toPluginView(p: Plugin, viewerId: string, withSource: boolean): PluginView {
  const isOwner = p.ownerId === viewerId;
  return {
    id: p.id,
    // The manifest's name: a marketplace copy is stored under a key of its own (PluginRepository.saveImported).
    name: p.manifest.name,
    displayName: p.manifest.displayName,
    version: p.version,
    description: p.manifest.description,
    manifest: p.manifest,
    published: p.published,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    isOwner,
    ...(withSource && (isOwner || p.published) ? { source: p.source } : {}),
    versions: [{ version: p.version, current: true }],
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** Largest plugin source accepted (one script). */
export const MAX_SOURCE_BYTES = 512 * 1024;
