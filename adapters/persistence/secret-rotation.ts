/**
 * Re-sealing every stored secret under a new key, in one transaction (all rows or none). The command line that
 * drives it is `npm run keys:rotate` (apps/cli/rotate-keys.main.ts).
 */
import type { DataSource, EntityManager } from 'typeorm';
import { AesGcmSecretBox } from '../crypto/aes-gcm.secret-box';
import type { ProviderId } from '../../core/ai/domain/provider-id';
import { providerKeyAssociatedData } from '../../core/provider-keys/domain/provider-key';
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
