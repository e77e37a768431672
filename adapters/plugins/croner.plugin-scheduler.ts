import { Cron } from 'croner';
import type { PluginScheduler, ScheduledJob } from '../../core/plugins/ports/plugin-scheduler.port';
import { checkCronJob } from './cron-rules';

type Runner = (job: { installationId: string; name: string }) => Promise<void>;

/** Cron in this process (no Redis): croner for expressions, an interval for `<n>s|m|h|d`; overlapping ticks are skipped. */
export class CronerPluginScheduler implements PluginScheduler {
  private readonly jobs = new Map<string, { stop(): void }[]>();
  private run: Runner | undefined;

  validate(job: ScheduledJob): void {
    checkCronJob(job);
  }

  async schedule(installationId: string, jobs: ScheduledJob[]): Promise<void> {
    await this.unschedule(installationId);
    const started = jobs.map((job) => {
      const tick = () => this.run?.({ installationId, name: job.name }) ?? Promise.resolve();
      if (job.everyMs !== undefined) {
        let busy = false;
        const timer = setInterval(() => {
          if (busy) return;
          busy = true;
          void tick().finally(() => (busy = false));
        }, job.everyMs);
        timer.unref();
        return { stop: () => clearInterval(timer) };
      }
      const cron = new Cron(job.pattern!, { timezone: job.timezone, protect: true, unref: true }, () => tick());
      return { stop: () => cron.stop() };
    });
    this.jobs.set(installationId, started);
  }

  async unschedule(installationId: string): Promise<void> {
    for (const job of this.jobs.get(installationId) ?? []) job.stop();
    this.jobs.delete(installationId);
  }

  async start(run: Runner): Promise<void> {
    this.run = run;
  }

  async close(): Promise<void> {
    for (const id of [...this.jobs.keys()]) await this.unschedule(id);
  }
}
