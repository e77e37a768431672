import { ValidationError } from './errors';

export interface PageRequest {
  page: number;
  limit: number;
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}

/** Reads `?page=&limit=` (ARCHITECTURE.md: default 20, max 100); out-of-range values are a 400. */
export function parsePageRequest(
  query: { page?: unknown; limit?: unknown },
  defaults: { limit?: number; maxLimit?: number } = {},
): PageRequest {
  const maxLimit = defaults.maxLimit ?? 100;
  const page = readPositiveInt(query.page, 'page', 1, Number.MAX_SAFE_INTEGER);
  const limit = readPositiveInt(query.limit, 'limit', defaults.limit ?? 20, maxLimit);
  return { page, limit };
}

function readPositiveInt(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw ValidationError.field(name, `${name} must be an integer from 1 to ${max}`);
  }
  return value;
}

export const offsetOf = (page: PageRequest): number => (page.page - 1) * page.limit;
