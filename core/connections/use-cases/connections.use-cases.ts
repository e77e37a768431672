import { randomUUID } from 'node:crypto';
import type { Actor } from '../../shared/actor';
import type { Clock } from '../../shared/clock.port';
import { ConflictError, isAppError, ValidationError } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { urlProblemOf } from '../../shared/outbound-url-rules.port';
import type { SecretBox } from '../../shared/secret-box.port';
import {
  connectionHeaderAad,
  connectionKeyAad,
  keptModels,
  MAX_CONNECTIONS_PER_OWNER,
  toConnectionView,
  validateConnectionInput,
  type Connection,
  type ConnectionInput,
  type ConnectionView,
} from '../domain/connection';
import type { ConnectionEndpoints, OpenedConnection } from '../ports/connection-endpoints.port';
import type { ConnectionRepository, ConnectionScope } from '../ports/connection-repository.port';
import { authorize, type TeamRoleLookup } from '../../access/access-policy';
import type { AccessAction } from '../../access/roles';

export interface ConnectionsDeps {
  connections: ConnectionRepository;
  /** Team roles, for a team's connections (the team policy in core/access decides); null where there are no teams. */
  teams: (TeamRoleLookup & { findById(id: string): Promise<{ id: string } | null> }) | null;
  endpoints: ConnectionEndpoints;
  secretBox: SecretBox;
  clock: Clock;
}

/** What a test of a connection found: whether it answered, how many models it lists, and why not. */
export interface ConnectionTest {
  ok: boolean;
  modelCount: number;
  error?: string;
}

const keyHint = (key: string): string => (key.length >= 8 ? `…${key.slice(-4)}` : '…');

/** The secrets of a stored connection, opened for one request (never logged, never returned). */
export function openConnection(secretBox: SecretBox, c: Connection): OpenedConnection {
  try {
    return {
      id: c.id,
      name: c.name,
      kind: c.kind,
      baseUrl: c.baseUrl,
      ...(c.sealedKey ? { apiKey: secretBox.open(c.sealedKey, connectionKeyAad(c.id)) } : {}),
      headers: Object.fromEntries(Object.entries(c.sealedHeaders).map(([name, sealed]) => [name, secretBox.open(sealed, connectionHeaderAad(c.id, name))])),
      models: c.models,
    };
  } catch (error) {
    if (!isAppError(error)) throw error;
    throw new ConflictError(`The saved secrets of the connection ${c.name} failed their integrity check: save its key and headers again`);
  }
}

/**
 * Owners' connections (docs/connections.md): saved only when the address rules let the platform call the
 * base URL; models discovered from the endpoint (or typed); key and headers sealed, never shown again.
 */
export class ConnectionsUseCases {
  constructor(private readonly deps: ConnectionsDeps) {}

  /** The caller's personal connections, or (`teamId`) the team's: any member sees them, as they pick models with them. */
  async list(actor: Actor, query: { teamId?: unknown } = {}): Promise<ConnectionView[]> {
    const scope = await this.scopeFor(actor, query.teamId, 'read');
    return (await this.deps.connections.list(scope)).map(toConnectionView);
  }

  async get(actor: Actor, id: string): Promise<ConnectionView> {
    return toConnectionView(await this.authorized(actor, id, 'read'));
  }

  /** A personal connection, or with `teamId` the team's (its Admins and Owner). */
  async create(actor: Actor, body: unknown, signal?: AbortSignal): Promise<ConnectionView> {
    const teamId = body && typeof body === 'object' && !Array.isArray(body) ? (body as { teamId?: unknown }).teamId : undefined;
    const scope = await this.scopeFor(actor, teamId, 'manage');
    const { teamId: _scope, ...fields } = body as Record<string, unknown>;
    const input = validateConnectionInput(fields) as ConnectionInput;
    const whose = 'teamId' in scope ? 'The team' : 'You';
    if ((await this.deps.connections.count(scope)) >= MAX_CONNECTIONS_PER_OWNER) {
      throw new ValidationError(`${whose} can keep at most ${MAX_CONNECTIONS_PER_OWNER} connections; delete one first`);
    }
    if (await this.deps.connections.findInScope(scope, input.name)) throw new ConflictError(`${whose} already ${whose === 'You' ? 'have' : 'has'} a connection named ${input.name}`);
    await this.checkAddress(input.baseUrl);
    const id = randomUUID();
    // A team's connection belongs to the team: no owner whose account deletion would take it along.
    const connection = this.sealed(id, 'teamId' in scope ? { ownerId: null, teamId: scope.teamId, addedBy: actor.userId } : { ownerId: actor.userId, teamId: null, addedBy: actor.userId }, input, null);
    if (!input.models) connection.models = await this.discoverQuietly(connection, signal);
    return toConnectionView(await this.deps.connections.save(connection, this.deps.clock.now()));
  }

  async update(actor: Actor, id: string, body: unknown): Promise<ConnectionView> {
    const current = await this.authorized(actor, id, 'manage');
    const input = validateConnectionInput(body, true);
    const scope: ConnectionScope = current.teamId ? { teamId: current.teamId } : { ownerId: current.ownerId! };
    if (input.name && input.name !== current.name && (await this.deps.connections.findInScope(scope, input.name))) {
      throw new ConflictError(`${current.teamId ? 'The team already has' : 'You already have'} a connection named ${input.name}`);
    }
    if (input.baseUrl) await this.checkAddress(input.baseUrl);
    const merged = this.sealed(current.id, current, { name: current.name, kind: current.kind, baseUrl: current.baseUrl, ...input } as ConnectionInput, current);
    return toConnectionView(await this.deps.connections.save(merged, this.deps.clock.now()));
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const current = await this.authorized(actor, id, 'manage');
    await this.deps.connections.delete(current.id);
  }

  /** Lists the endpoint's models again and keeps them (at most MAX_CONNECTION_MODELS). */
  async discover(actor: Actor, id: string, signal?: AbortSignal): Promise<ConnectionView> {
    const current = await this.authorized(actor, id, 'manage');
    await this.checkAddress(current.baseUrl);
    const models = await this.deps.endpoints.listModels(openConnection(this.deps.secretBox, current), signal);
    const saved = await this.deps.connections.save({ ...current, models: keptModels(models), modelsDiscoveredAt: this.deps.clock.now() }, this.deps.clock.now());
    return toConnectionView(saved);
  }

  /** Calls the endpoint's model listing: a failed call is an answer (`ok: false`), not an error. */
  async test(actor: Actor, id: string, signal?: AbortSignal): Promise<ConnectionTest> {
    const current = await this.authorized(actor, id, 'manage');
    const problem = await this.deps.endpoints.problemWith(current.baseUrl);
    if (problem) return { ok: false, modelCount: 0, error: urlProblemOf(problem, 'The address') };
    try {
      const models = await this.deps.endpoints.listModels(openConnection(this.deps.secretBox, current), signal);
      return { ok: true, modelCount: models.length };
    } catch (error) {
      if (signal?.aborted) throw error;
      return { ok: false, modelCount: 0, error: isAppError(error) ? error.message : 'The endpoint could not be reached' };
    }
  }

  /**
   * The connection if the caller may do `action` on it: the one authorization rule (core/access) decides,
   * the owner on a personal connection, the team role on a team's; anyone else gets the same 404 as for a
   * connection that does not exist.
   */
  private async authorized(actor: Actor, id: string, action: AccessAction): Promise<Connection> {
    const found = isUuid(id) ? await this.deps.connections.findById(id) : null;
    await authorize(found && { ownerId: found.ownerId ?? '', teamId: found.teamId }, actor, action, 'Connection', this.deps.teams);
    return found!;
  }

  /** The caller's personal scope, or a team's when `teamId` is given and the team policy lets the caller do `action` there. */
  private async scopeFor(actor: Actor, teamId: unknown, action: AccessAction): Promise<ConnectionScope> {
    if (teamId === undefined || teamId === null || teamId === '') return { ownerId: actor.userId };
    const team = isUuid(teamId) && this.deps.teams ? await this.deps.teams.findById(teamId) : null;
    await authorize(team && { ownerId: '', teamId: team.id }, actor, action, 'Team', this.deps.teams);
    return { teamId: team!.id };
  }

  private async checkAddress(baseUrl: string): Promise<void> {
    const problem = await this.deps.endpoints.problemWith(baseUrl);
    if (problem) throw ValidationError.field('baseUrl', urlProblemOf(problem, 'baseUrl'));
  }

  private async discoverQuietly(connection: Connection, signal?: AbortSignal): Promise<string[]> {
    try {
      const models = keptModels(await this.deps.endpoints.listModels(openConnection(this.deps.secretBox, connection), signal));
      connection.modelsDiscoveredAt = this.deps.clock.now();
      return models;
    } catch (error) {
      if (signal?.aborted) throw error;
      // A connection whose endpoint lists nothing (or is down right now) is saved all the same: models can be typed.
      return [];
    }
  }

  private sealed(id: string, held: Pick<Connection, 'ownerId' | 'teamId' | 'addedBy'>, input: ConnectionInput, current: Connection | null): Connection {
    const box = this.deps.secretBox;
    const now = this.deps.clock.now();
    let sealedKey = current?.sealedKey ?? null;
    let hint = current?.keyHint ?? null;
    if (input.apiKey === null) [sealedKey, hint] = [null, null];
    else if (typeof input.apiKey === 'string') [sealedKey, hint] = [box.seal(input.apiKey, connectionKeyAad(id)), keyHint(input.apiKey)];
    const sealedHeaders = input.headers
      ? Object.fromEntries(Object.entries(input.headers).map(([name, value]) => [name, box.seal(value, connectionHeaderAad(id, name))]))
      : (current?.sealedHeaders ?? {});
    return {
      id,
      ownerId: held.ownerId,
      teamId: held.teamId,
      addedBy: held.addedBy,
      name: input.name,
      kind: input.kind,
      baseUrl: input.baseUrl,
      sealedKey,
      keyHint: hint,
      sealedHeaders,
      models: input.models ?? current?.models ?? [],
      modelsDiscoveredAt: input.models ? null : (current?.modelsDiscoveredAt ?? null),
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    };
  }
}
