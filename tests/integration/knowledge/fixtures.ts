import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { normalize } from '../../../core/knowledge/domain/vector-math';

/** A deterministic pseudo-random source, so failures replay. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A unit vector of `dimension` random components in [-1, 1). */
export function randomUnitVector(random: () => number, dimension: number): number[] {
  return normalize(Array.from({ length: dimension }, () => random() * 2 - 1));
}

/** A user and an application row, for the foreign keys of knowledge tables. */
export async function anApplicationRow(db: DataSource): Promise<{ userId: string; applicationId: string }> {
  const [user] = (await db.query(`INSERT INTO users (email, display_name, password_hash) VALUES ($1, 'K', 'h') RETURNING id`, [`${randomUUID()}@example.com`])) as { id: string }[];
  const [app] = (await db.query(`INSERT INTO applications (owner_id, name, slug) VALUES ($1, 'Knowledge', $2) RETURNING id`, [user!.id, `k-${randomUUID()}`])) as { id: string }[];
  return { userId: user!.id, applicationId: app!.id };
}

/** A knowledge document row in `processing`, for chunks to belong to. */
export async function aDocumentRow(db: DataSource, applicationId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const [doc] = (await db.query(
    `INSERT INTO knowledge_documents (application_id, file_name, format, size_bytes, storage_key, chunk_size, chunk_overlap, embedding_provider, embedding_model, embedding_dimension)
     VALUES ($1, $2, 'txt', 10, $3, 1000, 200, 'local', 'local-hash-384', 384) RETURNING id`,
    [applicationId, overrides.fileName ?? 'doc.txt', `knowledge/${randomUUID()}.txt`],
  )) as { id: string }[];
  return doc!.id;
}
