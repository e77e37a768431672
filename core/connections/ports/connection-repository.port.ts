import type { Connection } from '../domain/connection';

export type NewConnection = Omit<Connection, 'createdAt' | 'updatedAt'>;

/** Whose connections a list or count covers: a user's personal ones, or a team's. */
export type ConnectionScope = { ownerId: string } | { teamId: string };

/** Whose connections an application's turns and configs may name: its team's first, then its owner's personal ones. */
export interface ConnectionUser {
  ownerId: string;
  teamId?: string | null;
}

/**
 * Connections, personal or a team's. Lookups by id are unscoped: the use cases authorize them with the team
 * policy (core/access) before anything is shown or changed; lookups by name are scoped.
 */
export interface ConnectionRepository {
  /** Creates or replaces (by id) a connection; a second of the same name in its scope is a ConflictError. */
  save(connection: NewConnection, now: Date): Promise<Connection>;
  findById(id: string): Promise<Connection | null>;
  /** A connection an application may name: the team's (when `user.teamId`) first, then the owner's personal one. */
  findByName(user: ConnectionUser, name: string): Promise<Connection | null>;
  /** The connection of that name in exactly this scope. */
  findInScope(scope: ConnectionScope, name: string): Promise<Connection | null>;
  list(scope: ConnectionScope): Promise<Connection[]>;
  count(scope: ConnectionScope): Promise<number>;
  delete(id: string): Promise<boolean>;
}
