/**
 * A table with a column of each type the platform stores (for the PGlite runner tests): `id` is given,
 * as a uuid default or an int key.
 */
export const thingsTable = (id: string): string => `
  CREATE EXTENSION IF NOT EXISTS vector;
  CREATE TABLE things (
    id ${id},
    name text UNIQUE NOT NULL,
    n bigint NOT NULL DEFAULT 0,
    price numeric,
    ok boolean,
    meta jsonb,
    tags text[],
    embedding vector(3),
    raw bytea,
    at timestamptz NOT NULL DEFAULT now()
  )`;
