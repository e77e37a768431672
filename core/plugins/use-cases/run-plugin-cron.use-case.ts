import type { InstallationRepository } from '../ports/installation-repository.port';
import type { PluginRuntime } from './plugin-runtime';

/** One cron tick of one installation (delivered once across instances by the scheduler); its outcome goes to the run log. */
export class RunPluginCronUseCase {
  constructor(private readonly deps: { installations: InstallationRepository; runtime: PluginRuntime }) {}

  async execute(job: { installationId: string; name: string }): Promise<void> {
    // Taken before the state is read: a tick that runs fired before any deactivation that stops it had answered.
    const firedAt = new Date().toISOString();
    const installation = await this.deps.installations.findById(job.installationId);
    if (!installation || installation.state !== 'activated') return;
    const started = Date.now();
    const { runtime } = this.deps;
    try {
      await runtime.load(installation);
      await runtime.call(installation, { kind: 'cron', name: job.name }, { name: job.name, firedAt }, runtime.limits.call);
    } catch {
      return; // recorded by the runtime (run log, last error, circuit breaker); nowhere when a deactivation cut it
    }
    await this.deps.installations.recordRun({ installationId: installation.id, kind: 'cron', name: job.name, ok: true, error: null, durationMs: Date.now() - started });
  }
}
