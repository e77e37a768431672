import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExportContent, ExportFormat } from '../../../core/data-export/domain/data-export';
import type { ExportFile, ExportFiles } from '../../../core/data-export/ports/data-export.ports';
import { writeCsvZipExport } from './csv-zip-export.writer';
import { writeJsonExport } from './json-export.writer';

const FILE_NAME = /^([0-9a-f-]{36})\.(json|zip)$/;

/** Export files in `<DATA_DIR>/exports`, named by export id: `<id>.json` or `<id>.zip` (CSV tables). */
export class LocalDiskExportFiles implements ExportFiles {
  constructor(private readonly dir: string) {}

  async write(exportId: string, format: ExportFormat, content: ExportContent): Promise<{ fileName: string; byteSize: number }> {
    await mkdir(this.dir, { recursive: true });
    const fileName = `${exportId}.${format === 'json' ? 'json' : 'zip'}`;
    const path = join(this.dir, fileName);
    // A retried job starts over.
    await rm(path, { force: true });
    try {
      const byteSize = format === 'json' ? await writeJsonExport(path, content) : await writeCsvZipExport(path, join(this.dir, `${exportId}.tables`), content);
      return { fileName, byteSize };
    } catch (error) {
      await rm(path, { force: true });
      throw error;
    }
  }

  async open(fileName: string): Promise<ExportFile | null> {
    if (!FILE_NAME.test(fileName)) return null;
    const path = join(this.dir, fileName);
    const found = await stat(path).catch(() => null);
    if (!found?.isFile()) return null;
    const zip = fileName.endsWith('.zip');
    return {
      stream: createReadStream(path),
      byteSize: found.size,
      contentType: zip ? 'application/zip' : 'application/json; charset=utf-8',
      downloadName: `export-${fileName}`,
    };
  }

  async remove(fileName: string): Promise<void> {
    if (FILE_NAME.test(fileName)) await rm(join(this.dir, fileName), { force: true });
  }

  async list(): Promise<Array<{ fileName: string; exportId: string }>> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    return names.flatMap((fileName) => {
      const m = FILE_NAME.exec(fileName);
      return m ? [{ fileName, exportId: m[1]! }] : [];
    });
  }
}
