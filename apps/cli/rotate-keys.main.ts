import '../shared/runtime-check';
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
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm.secret-box';
import { openDatabase } from '../../adapters/persistence/data-source';
import { rotateStoredSecrets, UnreadableSecretError, type RotationResult } from '../../adapters/persistence/secret-rotation';
import { processCommand } from '../shared/process-command';
import { dataDirLockedLine } from '../shared/startup-failure';

const HEX64 = /^[0-9a-fA-F]{64}$/;

async function main(env: NodeJS.ProcessEnv): Promise<number> {
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
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATABASE_URL ? undefined : dataDir, command: processCommand() });
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

main(process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Only the message: a driver error never carries a key, but a stack of this script has nothing useful either.
    process.stderr.write(`${dataDirLockedLine(error) ?? `keys:rotate failed: ${error instanceof Error ? error.message : String(error)}`}\n`);
    process.exit(1);
  },
);
