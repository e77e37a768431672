import { PayloadTooLargeError, ValidationError } from '../../shared/errors';
import type { PluginPackageReader } from '../../plugins/ports/plugin-package-reader.port';
import type { PluginManifest } from '../../plugins/domain/manifest';
import { readPluginZip } from '../../plugins/use-cases/plugin-package';
import { MAX_PACKAGE_BYTES } from '../domain/package';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of a package sent base64-encoded in a JSON field; over MAX_PACKAGE_BYTES is a 413. */
export function decodePackage(value: unknown, field = 'package'): Buffer {
  if (typeof value !== 'string' || value === '') throw ValidationError.field(field, `${field} must be the ZIP package, base64-encoded`);
  if (value.length > Math.ceil((MAX_PACKAGE_BYTES * 4) / 3) + 4) throw new PayloadTooLargeError(`${field} must be at most ${MAX_PACKAGE_BYTES / 1024} KB`);
  if (!BASE64.test(value)) throw ValidationError.field(field, `${field} must be base64 (RFC 4648, with padding)`);
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length > MAX_PACKAGE_BYTES) throw new PayloadTooLargeError(`${field} must be at most ${MAX_PACKAGE_BYTES / 1024} KB`);
  return bytes;
}

/** A plugin ZIP validated as a local plugin is, whose manifest names this plugin and version. */
export async function validatedPluginZip(reader: PluginPackageReader, zip: Buffer, expect: { name: string; version: string }): Promise<PluginManifest> {
  const { manifest } = await readPluginZip(reader, zip);
  if (manifest.name !== expect.name) throw ValidationError.field('manifest.name', `the package's manifest.name is ${manifest.name}, not ${expect.name}`);
  if (manifest.version !== expect.version) throw ValidationError.field('manifest.version', `the package's manifest.version is ${manifest.version}, not ${expect.version}`);
  return manifest;
}
