/**
 * Re-sealing every stored secret under a new key, in one transaction (all rows or none). The command line that
 * drives it is `npm run keys:rotate` (apps/cli/rotate-keys.main.ts).
 */
import { toolSecretAad } from '../../core/tools/domain/tool';
import { mcpHeaderAad, mcpSecretAad } from '../../core/tools/domain/mcp-server';
import { workflowSecretAad } from '../../core/workflows/domain/secrets';
import type { DataSource, EntityManager } from 'typeorm';
import { AesGcmSecretBox } from '../crypto/aes-gcm.secret-box';
import type { ProviderId } from '../../core/ai/domain/provider-id';
import { secretAad } from '../../core/plugins/use-cases/plugin-runtime';
import { providerKeyAssociatedData } from '../../core/provider-keys/domain/provider-key';
import { secretAssociatedData } from '../../core/webhooks/domain/webhook';
import { teamProviderKeyAssociatedData } from '../../core/teams/domain/team';
import { oidcSecretAssociatedData } from '../../core/sso/domain/sso-config';
import { rows } from './sql';
import { connectionHeaderAad, connectionKeyAad } from '../../core/connections/domain/connection';

/** One column of sealed secrets: where it is, how its rows are named, and the associated data each was sealed with. */
export interface SealedColumn {
  name: string;
  table: string;
  idColumns: string[];
  sealedColumn: string;
  associatedData(row: Record<string, unknown>): string;
}

/** Every stored secret of the platform. An area that stores one adds its column here (NULLs, where the column allows them, are skipped). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    name: 'provider keys',
    table: 'provider_keys',
    idColumns: ['user_id', 'provider'],
    sealedColumn: 'sealed_key',
    associatedData: (row) => providerKeyAssociatedData(String(row.user_id), row.provider as ProviderId),
  },
  {
    name: 'webhook signing secrets',
    table: 'webhooks',
    idColumns: ['id'],
    sealedColumn: 'secret_sealed',
    associatedData: (row) => secretAssociatedData(String(row.id)),
  },
  {
    name: 'team provider keys',
    table: 'team_provider_keys',
    idColumns: ['team_id', 'provider'],
    sealedColumn: 'sealed_key',
    associatedData: (row) => teamProviderKeyAssociatedData(String(row.team_id), row.provider as ProviderId),
  },
  {
    name: 'connection keys',
    table: 'connections',
    idColumns: ['id'],
    sealedColumn: 'sealed_key',
    associatedData: (row) => connectionKeyAad(String(row.id)),
  },
  {
    name: 'SSO OIDC client secrets',
    table: 'sso_configurations',
    idColumns: ['id'],
    sealedColumn: 'oidc_client_secret_sealed',
    associatedData: (row) => oidcSecretAssociatedData(String(row.id)),
  },
];

/** A JSON object column whose values are sealed secrets, each sealed with associated data naming its key. */
export interface SealedMapColumn {
  name: string;
  table: string;
  idColumn: string;
  mapColumn: string;
  /** Other columns the associated data needs. */
  extraColumns: string[];
  associatedData(row: Record<string, unknown>, key: string): string;
}

/** Stored secrets kept as maps (a plugin installation's secret settings, one sealed value per setting). */
export const SEALED_MAP_COLUMNS: SealedMapColumn[] = [
  {
    name: 'plugin secret settings',
    table: 'plugin_installations',
    idColumn: 'id',
    mapColumn: 'sealed_secrets',
    extraColumns: ['application_id', 'plugin_id'],
    associatedData: (row, key) => secretAad({ applicationId: String(row.application_id), pluginId: String(row.plugin_id) }, key),
  },
  {
    name: 'workflow secrets',
    table: 'workflows',
    idColumn: 'id',
    mapColumn: 'secrets_sealed',
    extraColumns: [],
    associatedData: (row, key) => workflowSecretAad(String(row.id), key),
  },
  {
    name: 'connection headers',
    table: 'connections',
    idColumn: 'id',
    mapColumn: 'sealed_headers',
    extraColumns: [],
    associatedData: (row, key) => connectionHeaderAad(String(row.id), key),
  },
  {
    name: 'tool secrets',
    table: 'tools',
    idColumn: 'id',
    mapColumn: 'secrets_sealed',
    extraColumns: [],
    associatedData: (row, key) => toolSecretAad(String(row.id), key),
  },
  {
    name: 'MCP server secrets',
    table: 'mcp_servers',
    idColumn: 'id',
    mapColumn: 'secrets_sealed',
    extraColumns: [],
    associatedData: (row, key) => mcpSecretAad(String(row.id), key),
  },
  {
    name: 'MCP server headers',
    table: 'mcp_servers',
    idColumn: 'id',
    mapColumn: 'headers_sealed',
    extraColumns: [],
    associatedData: (row, key) => mcpHeaderAad(String(row.id), key),
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
export async function rotateStoredSecrets(
  dataSource: DataSource,
  box: AesGcmSecretBox,
  columns = SEALED_COLUMNS,
  maps = SEALED_MAP_COLUMNS,
): Promise<RotationResult> {
  return dataSource.transaction(async (tx: EntityManager) => {
    const result: RotationResult = { resealed: {}, alreadyCurrent: 0 };
    /** The value sealed with the new key, or null when it already is; throws naming the row when it opens with no key. */
    const reseal = (sealed: string, associatedData: string, table: string, where: string): string | null => {
      if (box.sealedWithCurrentKey(sealed)) {
        result.alreadyCurrent += 1;
        return null;
      }
      try {
        return box.reseal(sealed, associatedData);
      } catch {
        throw new UnreadableSecretError(
          `A stored secret in ${table} (${where}) does not open with ENCRYPTION_KEY or PREVIOUS_ENCRYPTION_KEYS; nothing was changed. ` +
            `Give the key it was sealed with in PREVIOUS_ENCRYPTION_KEYS, or delete that row, and run again.`,
        );
      }
    };
    for (const col of columns) {
      result.resealed[col.name] = 0;
      const ids = col.idColumns.join(', ');
      const found = await rows<Record<string, unknown>>(tx, `SELECT ${ids}, ${col.sealedColumn} AS sealed FROM ${col.table} WHERE ${col.sealedColumn} IS NOT NULL ORDER BY ${ids} FOR UPDATE`);
      for (const row of found) {
        const resealed = reseal(String(row.sealed), col.associatedData(row), col.table, col.idColumns.map((c) => `${c}=${String(row[c])}`).join(', '));
        if (resealed === null) continue;
        const where = col.idColumns.map((c, i) => `${c} = $${i + 2}`).join(' AND ');
        await tx.query(`UPDATE ${col.table} SET ${col.sealedColumn} = $1 WHERE ${where}`, [resealed, ...col.idColumns.map((c) => row[c])]);
        result.resealed[col.name] += 1;
      }
    }
    for (const map of maps) {
      result.resealed[map.name] = 0;
      const found = await rows<Record<string, unknown>>(
        tx,
        `SELECT ${[map.idColumn, ...map.extraColumns].join(', ')}, ${map.mapColumn} AS sealed FROM ${map.table} WHERE ${map.mapColumn} <> '{}'::jsonb ORDER BY ${map.idColumn} FOR UPDATE`,
      );
      for (const row of found) {
        const values = row.sealed as Record<string, string>;
        const next: Record<string, string> = { ...values };
        let changed = 0;
        for (const [key, sealed] of Object.entries(values)) {
          const resealed = reseal(sealed, map.associatedData(row, key), map.table, `${map.idColumn}=${String(row[map.idColumn])}, ${key}`);
          if (resealed === null) continue;
          next[key] = resealed;
          changed += 1;
        }
        if (!changed) continue;
        await tx.query(`UPDATE ${map.table} SET ${map.mapColumn} = $1::jsonb WHERE ${map.idColumn} = $2`, [JSON.stringify(next), row[map.idColumn]]);
        result.resealed[map.name] += changed;
      }
    }
    return result;
  });
}
