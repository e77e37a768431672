/**
 * Failures of the platform itself rather than of a request: bad configuration, a data directory held by another
 * process, a port that cannot be taken, Redis out of reach, a call after `close()`. They are not answers to a
 * caller's input (those are `AppError`s, each with an HTTP status); a program embedding the platform tells them
 * apart by class or by `failure`.
 */
export type PlatformFailure = 'config' | 'data_dir_locked' | 'listen' | 'redis_unreachable' | 'platform_closed';

export abstract class PlatformError extends Error {
  abstract readonly failure: PlatformFailure;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A use case or request listener of a platform used after its `close()`. */
export class PlatformClosedError extends PlatformError {
  readonly failure = 'platform_closed' as const;
  constructor(what = 'this call') {
    super(`The platform is closed: ${what} needs an open platform (create another with createPlatform)`);
  }
}
