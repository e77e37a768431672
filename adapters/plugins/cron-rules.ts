import { Cron } from 'croner';
import type { ScheduledJob } from '../../core/plugins/ports/plugin-scheduler.port';
import { MIN_CRON_PERIOD_MS } from '../../core/plugins/domain/definition';
import { ValidationError } from '../../core/shared/errors';

/** A cron expression of 5 or 6 fields and an IANA time zone, checked by croner (no hand-written cron parsing). */
export function checkCronJob(job: ScheduledJob): void {
  const path = `cron.${job.name}`;
  if (job.everyMs !== undefined) {
    if (job.everyMs < MIN_CRON_PERIOD_MS) throw ValidationError.field(path, `cron ${job.name}: the shortest period is 10s`);
    return;
  }
  const pattern = (job.pattern ?? '').trim();
  const fields = pattern.split(/\s+/).length;
  if (fields !== 5 && fields !== 6) throw ValidationError.field(path, `cron ${job.name}: schedule must be a cron expression of 5 or 6 fields, or <n>s|m|h|d`);
  try {
    new Cron(pattern, { paused: true, timezone: job.timezone }).nextRun();
  } catch (error) {
    throw ValidationError.field(path, `cron ${job.name}: ${(error as Error).message}`);
  }
}
