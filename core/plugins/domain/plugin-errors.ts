import { AppError } from '../../shared/errors';

/** A `message:beforeSend` filter refused the message: 422 with the plugin's reason, no provider call. */
export class PluginRejectedError extends AppError {
  readonly kind = 'validation' as const;
  readonly status = 422;
}

/** A plugin call failed (threw, timed out, ran out of memory, answered something that is not JSON). */
export class PluginCallError extends Error {
  constructor(message: string, readonly reason: 'error' | 'timeout' | 'memory' | 'result' | 'unavailable' = 'error') {
    super(message);
    this.name = 'PluginCallError';
  }
}
