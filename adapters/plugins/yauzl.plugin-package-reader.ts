import yauzl from 'yauzl';
import type { PluginPackageReader } from '../../core/plugins/ports/plugin-package-reader.port';
import { ValidationError } from '../../core/shared/errors';

const MAX_ENTRIES = 50;
const MAX_FILE_BYTES = 512 * 1024;
const MAX_TOTAL_BYTES = 2 * 1024 * 1024;
const MAX_RATIO = 100;

const refused = (message: string) => ValidationError.field('package', message);

/**
 * Reads a plugin ZIP with yauzl: at most 50 entries, 512 KB per file and 2 MB in all, uncompressed
 * sizes checked as bytes arrive (not trusted from headers), no compression ratio past 100:1 (bombs),
 * no absolute or `../` paths (yauzl refuses them as it reads the central directory).
 */
export class YauzlPluginPackageReader implements PluginPackageReader {
  read(zip: Buffer): Promise<Map<string, string>> {
    return new Promise((resolve, reject) => {
      yauzl.fromBuffer(zip, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true }, (openError, archive) => {
        if (openError || !archive) return reject(refused(`the package is not a readable ZIP (${openError?.message ?? 'empty'})`));
        const files = new Map<string, string>();
        let total = 0;
        let entries = 0;
        const fail = (message: string) => {
          archive.close();
          reject(refused(message));
        };
        archive.on('error', (e: Error) => fail(`the package is not a readable ZIP: ${e.message}`));
        archive.on('end', () => resolve(files));
        archive.on('entry', (entry: yauzl.Entry) => {
          if (++entries > MAX_ENTRIES) return fail(`the package holds more than ${MAX_ENTRIES} files`);
          const name = entry.fileName;
          if (name.split('/').includes('..') || name.startsWith('/') || name.includes('\\')) return fail(`the package holds a file outside itself: ${name}`);
          if (name.endsWith('/')) return archive.readEntry();
          if (entry.uncompressedSize > MAX_FILE_BYTES) return fail(`${name} is larger than ${MAX_FILE_BYTES / 1024} KB`);
          if (entry.compressedSize > 0 && entry.uncompressedSize / entry.compressedSize > MAX_RATIO) return fail(`${name} is compressed more than ${MAX_RATIO}:1 (a ZIP bomb?)`);
          archive.openReadStream(entry, (streamError, stream) => {
            if (streamError || !stream) return fail(`${name} cannot be read: ${streamError?.message ?? ''}`);
            const chunks: Buffer[] = [];
            let size = 0;
            stream.on('data', (chunk: Buffer) => {
              size += chunk.length;
              total += chunk.length;
              if (size > MAX_FILE_BYTES || total > MAX_TOTAL_BYTES) {
                stream.destroy();
                fail(`the package unpacks to more than allowed (${MAX_FILE_BYTES / 1024} KB per file, ${MAX_TOTAL_BYTES / 1024 / 1024} MB in all)`);
              }
              chunks.push(chunk);
            });
            stream.on('error', (e: Error) => fail(`${name} cannot be read: ${e.message}`));
            stream.on('end', () => {
              files.set(name, Buffer.concat(chunks).toString('utf8'));
              archive.readEntry();
            });
          });
        });
        archive.readEntry();
      });
    });
  }
}
