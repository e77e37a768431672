import type { SsoConfig } from '../domain/sso-config';
import type { SsoEnforcement } from './sso-enforcement.port';

export type SsoConfigData = Omit<SsoConfig, 'createdAt' | 'updatedAt'>;

/** Teams' SSO connections (one per team), and the assertions already used (replay protection). */
export interface SsoConfigRepository extends SsoEnforcement {
  findByTeam(teamId: string): Promise<SsoConfig | null>;
  findById(id: string): Promise<SsoConfig | null>;
  /** Creates or replaces the team's connection (its id kept when it exists). */
  save(config: SsoConfigData): Promise<SsoConfig>;
  /** False when the team had none. */
  delete(teamId: string): Promise<boolean>;
  /** Records an assertion id until `expiresAt`; false when it was recorded before (a replay). */
  recordAssertion(id: string, expiresAt: Date): Promise<boolean>;
}
