import { docExample as fromDocs, zipFiles } from '../../../adapters/plugins/doc-examples';

/** The example plugins of docs/plugins.md, read from the page itself so the guide and the tests cannot drift apart. */
export function docExample(name: 'profanity-filter' | 'conversation-counter'): { manifest: Record<string, unknown>; source: string } {
  return fromDocs(name);
}

/** A small plugin package for tests: a manifest around `source`. */
export function aPlugin(source: string, manifest: Record<string, unknown> = {}) {
  return { manifest: { name: `p-${Math.random().toString(36).slice(2, 10)}`, version: '1.0.0', main: 'index.js', ...manifest }, source };
}

/** A ZIP made with yazl from name → content. */
export const zipOf = zipFiles;
