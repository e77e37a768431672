import { ConflictError } from '../../shared/errors';

/** SPEC 3's states of a plugin in one application. */
export type InstallationState = 'installed' | 'activated' | 'deactivated';
export type InstallationMove = 'activate' | 'deactivate' | 'uninstall';

/** A plugin installed in an application (the unit of isolation: KV, isolate, settings, counters). */
export interface Installation {
  id: string;
  pluginId: string;
  applicationId: string;
  ownerId: string;
  state: InstallationState;
  version: string;
  settings: Record<string, unknown>;
  /** Sealed secret settings by name; opened only for a sandbox call. */
  sealedSecrets: Record<string, string>;
  callCount: number;
  failureCount: number;
  consecutiveFailures: number;
  lastError: string | null;
  lastErrorAt: Date | null;
  /** Why the platform deactivated it (circuit breaker), if it did. */
  deactivationReason: string | null;
  installedAt: Date;
  updatedAt: Date;
}

/**
 * SPEC 3: installed → activated → deactivated (→ activated again, EXTENSIONS.md); uninstall from
 * installed, and from deactivated (what every product allows: stop, then remove). Others are 409.
 */
const MOVES: Record<InstallationMove, { from: InstallationState[]; to: InstallationState | null }> = {
  activate: { from: ['installed', 'deactivated'], to: 'activated' },
  deactivate: { from: ['activated'], to: 'deactivated' },
  uninstall: { from: ['installed', 'deactivated'], to: null },
};

export function nextState(current: InstallationState, move: InstallationMove): InstallationState | null {
  const rule = MOVES[move];
  if (!rule.from.includes(current)) {
    const hint = move === 'uninstall' ? '; deactivate it first' : '';
    throw new ConflictError(`Cannot ${move} a plugin that is ${current}${hint}`);
  }
  return rule.to;
}

/** Consecutive failures after which the installation is deactivated (EXTENSIONS.md "Circuit breaker"). */
export const CIRCUIT_BREAKER_THRESHOLD = 5;

export interface InstallationView {
  id: string;
  pluginId: string;
  applicationId: string;
  name: string;
  displayName: string;
  state: InstallationState;
  version: string;
  settings: Record<string, unknown>;
  counters: { calls: number; failures: number; consecutiveFailures: number };
  lastError: string | null;
  lastErrorAt: string | null;
  deactivationReason: string | null;
  installedAt: string;
  updatedAt: string;
}
