import type { Installation, InstallationState } from '../domain/installation';

export interface NewInstallation {
  pluginId: string;
  applicationId: string;
  version: string;
  settings: Record<string, unknown>;
  sealedSecrets: Record<string, string>;
}

export interface PluginRun {
  id: string;
  installationId: string;
  kind: string;
  name: string;
  ok: boolean;
  error: string | null;
  durationMs: number;
  at: Date;
}

/** Installations of plugins in applications, with their counters and run log. */
export interface InstallationRepository {
  /** A second installation of one plugin in one application is a ConflictError. */
  create(i: NewInstallation): Promise<Installation>;
  findById(id: string): Promise<Installation | null>;
  findByPlugin(applicationId: string, pluginId: string): Promise<Installation | null>;
  listByApplication(applicationId: string): Promise<Installation[]>;
  /** Active installations of an application, oldest installation first (the order of equal priorities). */
  listActive(applicationId: string): Promise<Installation[]>;
  listAllActive(): Promise<Installation[]>;
  /** Moves the state only if it is still `from` (so concurrent moves cannot both win); null if it was not. */
  move(id: string, from: InstallationState[], to: InstallationState, reason?: string | null): Promise<Installation | null>;
  updateSettings(id: string, settings: Record<string, unknown>, sealedSecrets: Record<string, string>): Promise<Installation>;
  /** Records the package version an installation now runs (a marketplace upgrade), keeping settings and KV. */
  setVersion(id: string, version: string): Promise<Installation>;
  /** Deletes the installation with its KV data and run log, if it is still in one of `from`; false otherwise. */
  delete(id: string, from: InstallationState[]): Promise<boolean>;
  addCalls(counts: Map<string, number>): Promise<void>;
  /** Counts a failure; answers the consecutive failures now recorded. */
  recordFailure(id: string, error: string): Promise<number>;
  resetConsecutiveFailures(id: string): Promise<void>;
  recordRun(run: Omit<PluginRun, 'id' | 'at'>): Promise<void>;
  listRuns(installationId: string, limit: number): Promise<PluginRun[]>;
}
