import type { ProviderId } from '../../ai/domain/provider-id';
import { keyHintOf, parseApiKey, parseProviderParam } from '../../provider-keys/domain/provider-key';
import type { Actor } from '../../shared/actor';
import { ConflictError, isAppError, NotFoundError } from '../../shared/errors';
import type { SecretBox } from '../../shared/secret-box.port';
import { teamProviderKeyAssociatedData } from '../domain/team';
import type { TeamProviderKey, TeamProviderKeyRepository, TeamRepository } from '../ports/team-repository.port';
import { findTeamAs } from './team-access';

export interface TeamProviderKeyView {
  provider: ProviderId;
  keyHint: string;
  createdAt: string;
  updatedAt: string;
}

const toView = (k: TeamProviderKey): TeamProviderKeyView => ({
  provider: k.provider,
  keyHint: k.keyHint,
  createdAt: k.createdAt.toISOString(),
  updatedAt: k.updatedAt.toISOString(),
});

interface Deps {
  teams: TeamRepository;
  keys: TeamProviderKeyRepository;
  secretBox: SecretBox;
}

/** Saves the team's own key for a provider (sealed to the team and provider), replacing any earlier one: Admins and the Owner. */
export class SaveTeamProviderKeyUseCase {
  constructor(private readonly deps: Deps) {}

  async execute(id: unknown, providerParam: unknown, body: unknown, actor: Actor): Promise<TeamProviderKeyView> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    const provider = parseProviderParam(providerParam);
    const rawKey = parseApiKey(provider, body);
    const sealedKey = this.deps.secretBox.seal(rawKey, teamProviderKeyAssociatedData(team.id, provider));
    return toView(await this.deps.keys.save({ teamId: team.id, provider, sealedKey, keyHint: keyHintOf(rawKey) }));
  }
}

/** The team's provider keys, hints only: Admins and the Owner. */
export class ListTeamProviderKeysUseCase {
  constructor(private readonly deps: Pick<Deps, 'teams' | 'keys'>) {}

  async execute(id: unknown, actor: Actor): Promise<TeamProviderKeyView[]> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    return (await this.deps.keys.list(team.id)).map(toView);
  }
}

/** Deletes the team's key for a provider: Admins and the Owner. */
export class DeleteTeamProviderKeyUseCase {
  constructor(private readonly deps: Pick<Deps, 'teams' | 'keys'>) {}

  async execute(id: unknown, providerParam: unknown, actor: Actor): Promise<void> {
    const { team } = await findTeamAs(this.deps.teams, id, actor, 'manage');
    const provider = parseProviderParam(providerParam);
    if (!(await this.deps.keys.delete(team.id, provider))) throw new NotFoundError('Team provider key');
  }
}

/**
 * What a chat turn of a team's application takes from the team: its default provider, and (with the
 * shared provider keys setting on) its own key for the turn's provider, opened for that one request.
 */
export class TeamTurnKeys {
  constructor(private readonly deps: Deps) {}

  async defaultProvider(teamId: string): Promise<ProviderId | null> {
    return (await this.deps.teams.findById(teamId))?.settings.defaultProvider ?? null;
  }

  /** The raw key, or null when the setting is off or the team has none for the provider. Never cache or log it. */
  async keyFor(teamId: string, provider: ProviderId): Promise<string | null> {
    const team = await this.deps.teams.findById(teamId);
    if (!team?.settings.sharedProviderKeys) return null;
    const stored = await this.deps.keys.find(teamId, provider);
    if (!stored) return null;
    try {
      return this.deps.secretBox.open(stored.sealedKey, teamProviderKeyAssociatedData(teamId, provider));
    } catch (error) {
      if (!isAppError(error)) throw error;
      throw new ConflictError(`The team's saved ${provider} key failed its integrity check and cannot be used: save it again in the team's provider keys`);
    }
  }
}
