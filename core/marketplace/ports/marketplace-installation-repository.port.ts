/** An installation that came from the marketplace: which item and version, and its license standing. */
export interface MarketplaceInstallation {
  installationId: string;
  applicationId: string;
  ownerId: string;
  marketplacePluginId: string;
  /** The local package row the installation runs (one per item and application). */
  pluginId: string;
  version: string;
  isPaid: boolean;
  /** When license validation first failed because the marketplace was unreachable; null while it answers. */
  licenseUnreachableSince: Date | null;
  state: 'installed' | 'activated' | 'deactivated';
}

/** SPEC 2.10's update entry, kept per installation by the daily check. */
export interface UpdateEntry {
  installedPluginId: string;
  pluginId: string;
  marketplacePluginId: string;
  latestVersion: string;
  currentVersion: string;
  changelog: string;
}

/** Marketplace links of installations, their update entries and license grace, and the daily runs' claims. */
export interface MarketplaceInstallationRepository {
  link(i: { installationId: string; marketplacePluginId: string; version: string; isPaid: boolean }): Promise<void>;
  find(installationId: string): Promise<MarketplaceInstallation | null>;
  /** The installation of a marketplace item in an application, if any. */
  findByItem(applicationId: string, marketplacePluginId: string): Promise<MarketplaceInstallation | null>;
  /** Every linked installation, oldest first, `limit` from after `afterId` (the daily check pages through them). */
  page(afterId: string | null, limit: number): Promise<MarketplaceInstallation[]>;
  /** The owner's installations of the given marketplace items (a holder's license list shows them). */
  ofOwner(ownerId: string, marketplacePluginIds: string[]): Promise<MarketplaceInstallation[]>;
  /** Activated paid installations (the license re-validation job). */
  activePaid(): Promise<MarketplaceInstallation[]>;
  setVersion(installationId: string, version: string): Promise<void>;
  /** Records the first unreachable validation (kept if already set); answers the time recorded. */
  markUnreachable(installationId: string, at: Date): Promise<Date>;
  clearUnreachable(installationId: string): Promise<void>;
  /** Writes (or replaces) the update entry of an installation. */
  recordUpdate(entry: Omit<UpdateEntry, 'pluginId'>): Promise<void>;
  /** Removes the installation's update entry; false when it had none. */
  clearUpdate(installationId: string): Promise<boolean>;
  updatesOf(ownerId: string): Promise<UpdateEntry[]>;
  countUpdatesOf(ownerId: string): Promise<number>;
  updateOf(installationId: string): Promise<UpdateEntry | null>;
}

/** A license validation's answer as the marketplace gave it, kept 5 minutes (SPEC 8) for every instance. */
export interface LicenseCheckRecord {
  valid: boolean;
  reason: string | null;
  checkedAt: Date;
}

/** Where validation answers are kept between instances (per user and item). */
export interface LicenseCheckStore {
  get(userId: string, marketplacePluginId: string): Promise<LicenseCheckRecord | null>;
  put(userId: string, marketplacePluginId: string, record: LicenseCheckRecord): Promise<void>;
}
