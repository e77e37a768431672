import type { Installation } from '../../plugins/domain/installation';
import type { InstallationRepository } from '../../plugins/ports/installation-repository.port';
import type { ActivationGate } from '../../plugins/use-cases/activate-plugin.use-case';
import type { PluginRuntime } from '../../plugins/use-cases/plugin-runtime';
import { PaymentRequiredError } from '../../shared/errors';
import type { MarketplaceInstallationRepository } from '../ports/marketplace-installation-repository.port';
import type { PaidLicenses } from './paid-licenses';

/** The plugins area's activation gate: a paid marketplace plugin activates only with a valid license (or in its grace period). */
export class LicenseActivationGate implements ActivationGate {
  constructor(private readonly deps: { links: MarketplaceInstallationRepository; licenses: PaidLicenses }) {}

  async check(installation: Installation): Promise<void> {
    const link = await this.deps.links.find(installation.id);
    if (!link) return;
    const standing = await this.deps.licenses.standing(link);
    if (!standing.allowed) throw new PaymentRequiredError(standing.reason);
  }
}

/**
 * The background re-validation (SPEC 5.7): every activated paid marketplace installation is checked
 * (answers kept 5 minutes); one whose license is refused, or whose grace period after the marketplace
 * became unreachable is over, is deactivated with the reason recorded, and its owner is told.
 */
export class RevalidateLicensesUseCase {
  constructor(private readonly deps: { links: MarketplaceInstallationRepository; licenses: PaidLicenses; installations: InstallationRepository; runtime: PluginRuntime }) {}

  async execute(): Promise<{ checked: number; deactivated: number }> {
    let checked = 0;
    let deactivated = 0;
    for (const link of await this.deps.links.activePaid()) {
      checked++;
      const standing = await this.deps.licenses.standing(link);
      if (standing.allowed) continue;
      const moved = await this.deps.installations.move(link.installationId, ['activated'], 'deactivated', standing.reason);
      if (!moved) continue;
      await this.deps.runtime.afterDeactivation(moved, standing.reason);
      deactivated++;
    }
    return { checked, deactivated };
  }
}
