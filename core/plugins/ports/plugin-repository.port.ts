import type { PluginManifest } from '../domain/manifest';
import type { Plugin } from '../domain/plugin';

/** Stored plugin packages. */
export interface PluginRepository {
  /** A new package; a duplicate name of one owner is a ConflictError. */
  create(p: { ownerId: string; manifest: PluginManifest; source: string }): Promise<Plugin>;
  findById(id: string): Promise<Plugin | null>;
  /** The owner's own plugins and every published one. */
  listVisible(viewerId: string, offset: number, limit: number): Promise<Plugin[]>;
  publish(id: string): Promise<Plugin>;
  /**
   * The owner's private copy of a package installed from the marketplace, stored under `key` (one per item
   * and application, never a name the owner could choose): created, or replaced by a newer package.
   */
  saveImported(p: { ownerId: string; key: string; manifest: PluginManifest; source: string }): Promise<Plugin>;
}
