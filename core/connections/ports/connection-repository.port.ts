import type { Connection } from '../domain/connection';

export type NewConnection = Omit<Connection, 'createdAt' | 'updatedAt'>;

/** An owner's connections; every lookup is by owner (another owner's connection is not found). */
export interface ConnectionRepository {
  /** Creates or replaces (by id) a connection; a second connection of the same name for one owner is a ConflictError. */
  save(connection: NewConnection, now: Date): Promise<Connection>;
  find(ownerId: string, id: string): Promise<Connection | null>;
  findByName(ownerId: string, name: string): Promise<Connection | null>;
  list(ownerId: string): Promise<Connection[]>;
  count(ownerId: string): Promise<number>;
  delete(ownerId: string, id: string): Promise<boolean>;
}
