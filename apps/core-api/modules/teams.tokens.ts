import type { TeamProviderKeyRepository, TeamRepository } from '../../../core/teams/ports/team-repository.port';
import { token } from '../../shared/tokens';

export const TEAM_TOKENS = {
  TeamRepository: token<TeamRepository>('TeamRepository'),
  TeamProviderKeyRepository: token<TeamProviderKeyRepository>('TeamProviderKeyRepository'),
} as const;
