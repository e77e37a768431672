/**
 * `npm run keys:rotate`: re-seals every stored secret from the old key to a new one, in one
 * transaction (all rows or none), and prints counts only, never a key.
 *
 *   ENCRYPTION_KEY=<old 64 hex> NEW_ENCRYPTION_KEY=<new 64 hex> npm run keys:rotate
 *
 * ENCRYPTION_KEY is the key in use (in development, when unset, the one generated into DATA_DIR, which
 * is then replaced by the new key); PREVIOUS_ENCRYPTION_KEYS may name older keys still in some rows;
 * DATABASE_URL / DATA_DIR choose the database as for the services. Stop the services first (or run
 * them with ENCRYPTION_KEY=<new> and PREVIOUS_ENCRYPTION_KEYS=<old> and run this again afterwards:
 * rows already sealed with the new key are skipped), then start them with ENCRYPTION_KEY=<new>.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { AesGcmSecretBox } from '../crypto/aes-gcm.secret-box';
import type { ProviderId } from '../../core/ai/domain/provider-id';
import { providerKeyAssociatedData } from '../../core/provider-keys/domain/provider-key';
import { openDatabase } from './data-source';
import { rows } from './sql';

/** One column of sealed secrets: where it is, how its rows are named, and the associated data each was sealed with. */
export interface SealedColumn {
  name: string;
  table: string;
  idColumns: string[];
  sealedColumn: string;
  associatedData(row: Record<string, unknown>): string;
}

/** Every stored secret of the platform. An area that stores one adds its column here. */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    name: 'provider keys',
    table: 'provider_keys',
    idColumns: ['user_id', 'provider'],
    sealedColumn: 'sealed_key',
    associatedData: (row) => providerKeyAssociatedData(String(row.user_id), row.provider as ProviderId),
  },
];

export interface RotationResult {
  /** Re-sealed rows per column name. */
  resealed: Record<string, number>;
  /** Rows already sealed with the new key (an earlier run), left as they were. */
  alreadyCurrent: number;
}

/** A row that does not open with any key given: the rotation stops and changes nothing. */
export class UnreadableSecretError extends Error {}

/**
 * Opens each sealed value with whichever key sealed it (the box holds the new key and the old ones)
 * and seals it again with the new key, inside one transaction with the rows locked.
 */
export async function rotateStoredSecrets(dataSource: DataSource, box: AesGcmSecretBox, columns = SEALED_COLUMNS): Promise<RotationResult> {
  return dataSource.transaction(async (tx: EntityManager) => {
    const result: RotationResult = { resealed: {}, alreadyCurrent: 0 };
    for (const col of columns) {
      result.resealed[col.name] = 0;
      const ids = col.idColumns.join(', ');
      const found = await rows<Record<string, unknown>>(tx, `SELECT ${ids}, ${col.sealedColumn} AS sealed FROM ${col.table} ORDER BY ${ids} FOR UPDATE`);
      for (const row of found) {
        const sealed = String(row.sealed);
        if (box.sealedWithCurrentKey(sealed)) {
          result.alreadyCurrent += 1;
          continue;
        }
        let resealed: string;
        try {
          resealed = box.reseal(sealed, col.associatedData(row));
        } catch {
          const where = col.idColumns.map((c) => `${c}=${String(row[c])}`).join(', ');
          throw new UnreadableSecretError(
            `A stored secret in ${col.table} (${where}) does not open with ENCRYPTION_KEY or PREVIOUS_ENCRYPTION_KEYS; nothing was changed. ` +
              `Give the key it was sealed with in PREVIOUS_ENCRYPTION_KEYS, or delete that row, and run again.`,
          );
        }
        const where = col.idColumns.map((c, i) => `${c} = $${i + 2}`).join(' AND ');
        await tx.query(`UPDATE ${col.table} SET ${col.sealedColumn} = $1 WHERE ${where}`, [resealed, ...col.idColumns.map((c) => row[c])]);
        result.resealed[col.name] += 1;
      }
    }
    return result;
  });
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

async function main(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const dataDir = resolve(env.DATA_DIR || './data');
  const devKeyFile = join(dataDir, 'secrets', 'encryption_key');
  const oldKey = env.ENCRYPTION_KEY || (existsSync(devKeyFile) ? readFileSync(devKeyFile, 'utf8').trim() : '');
  const newKey = env.NEW_ENCRYPTION_KEY ?? '';
  const fail = (message: string) => {
    process.stderr.write(`keys:rotate: ${message}\n`);
    return 1;
  };
  if (!HEX64.test(oldKey)) return fail('ENCRYPTION_KEY (the key in use now) must be set to 64 hexadecimal characters');
  if (!HEX64.test(newKey)) return fail('NEW_ENCRYPTION_KEY (the key to rotate to) must be set to 64 hexadecimal characters');
  if (oldKey.toLowerCase() === newKey.toLowerCase()) return fail('NEW_ENCRYPTION_KEY is the key in use already');
  const previous = (env.PREVIOUS_ENCRYPTION_KEYS ?? '').split(',').map((k) => k.trim()).filter(Boolean);
  if (previous.some((k) => !HEX64.test(k))) return fail('PREVIOUS_ENCRYPTION_KEYS must be 64-hex keys separated by commas');

  const box = new AesGcmSecretBox({ key: newKey, previousKeys: [oldKey, ...previous] });
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATABASE_URL ? undefined : dataDir });
  let result: RotationResult;
  try {
    result = await rotateStoredSecrets(database.dataSource, box);
  } catch (error) {
    if (error instanceof UnreadableSecretError) return fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
  const total = Object.values(result.resealed).reduce((a, b) => a + b, 0);
  const parts = Object.entries(result.resealed).map(([name, n]) => `${name}: ${n}`);
  process.stdout.write(`Re-sealed ${total} stored secrets with the new key (${parts.join(', ')}); ${result.alreadyCurrent} already used it.\n`);
  if (!env.ENCRYPTION_KEY && existsSync(devKeyFile)) {
    writeFileSync(devKeyFile, newKey + '\n', { mode: 0o600 });
    process.stdout.write(`The development key in ${devKeyFile} now holds the new key.\n`);
  } else {
    process.stdout.write('Set ENCRYPTION_KEY to the new key (and drop the old one) before starting the services again.\n');
  }
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      // Only the message: a driver error never carries a key, but a stack of this script has nothing useful either.
      process.stderr.write(`keys:rotate failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
