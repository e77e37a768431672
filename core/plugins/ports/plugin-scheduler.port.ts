/** One cron job of an installation. */
export interface ScheduledJob {
  installationId: string;
  name: string;
  /** A cron expression (5 or 6 fields) or a period in ms from the `<n>s|m|h|d` shorthand. */
  pattern?: string;
  everyMs?: number;
  timezone?: string;
}

/** Runs cron ticks once across all instances (BullMQ on Redis) or in this process (croner). */
export interface PluginScheduler {
  /** Throws a ValidationError naming the job when the expression or time zone is not valid. */
  validate(job: ScheduledJob): void;
  /** Replaces the installation's schedules. */
  schedule(installationId: string, jobs: ScheduledJob[]): Promise<void>;
  unschedule(installationId: string): Promise<void>;
  /** Starts delivering ticks to `run`. */
  start(run: (job: { installationId: string; name: string }) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}
