import { UpstreamTimeoutError } from '../../core/shared/errors';
import { toProviderError } from './provider-errors';

/** What every provider adapter is built with. */
export interface ProviderOptions {
  /** The SDK's base URL option (PROVIDER_X_BASE_URL); unset means the provider's public API. */
  baseUrl?: string;
  /** How long a call may wait for the provider: the whole call, or for a stream the gap between chunks. */
  timeoutMs: number;
  /** A connection's (docs/connections.md): the fetch that applies the address rules and the size limit. */
  fetch?: typeof fetch;
  /** A connection's extra headers, sent with every request. */
  headers?: Record<string, string>;
  /** The name failures are reported under (a connection's name); the provider id otherwise. */
  name?: string;
}

const abortError = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('This operation was aborted', 'AbortError');

/**
 * One provider request: its own abort signal (fed by the caller's signal and by the deadline),
 * and the translation of whatever the SDK throws into a core error. The deadline is ours rather
 * than the SDKs', which only time the wait for response headers, not a stalled stream.
 */
export class ProviderCall {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timedOut = false;
  /** The SDK's stream ran to its end: the response is read whole, nothing is left to cancel. */
  private complete = false;
  private readonly onCallerAbort = () => this.controller.abort();

  constructor(
    private readonly provider: string,
    private readonly timeoutMs: number,
    private readonly apiKey: string,
    private readonly callerSignal?: AbortSignal,
  ) {
    if (callerSignal?.aborted) throw abortError(callerSignal);
    callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.arm();
  }

  /** The signal to hand to the SDK. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The provider made progress: restart the deadline. */
  touch(): void {
    this.arm();
  }

  /** Releases the call; a request still running (the consumer stopped reading) is cancelled. */
  end(): void {
    this.release();
    // Aborting costs two DOMExceptions (this signal's and the SDK's own controller's) per stream: only when needed.
    if (!this.complete && !this.controller.signal.aborted) this.controller.abort();
  }

  /** Releases a call whose request has settled: nothing is left to cancel (aborting costs a DOMException). */
  private release(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  /**
   * Called once the SDK's stream has ended. SDK streams end quietly when their signal aborts; this says why the
   * stream stopped. Otherwise the stream ran to its end and `end` has nothing to cancel.
   */
  throwIfStopped(): void {
    if (this.callerSignal?.aborted) throw abortError(this.callerSignal);
    if (this.timedOut) throw this.timeoutError();
    this.complete = true;
  }

  /** The core error for a failure of this call; the caller's own abort is passed through untouched. */
  failure(error: unknown): unknown {
    if (this.callerSignal?.aborted) return abortError(this.callerSignal);
    if (this.timedOut) return this.timeoutError();
    return toProviderError(this.provider, error, this.apiKey);
  }

  /** Runs a one-shot request under this call. */
  async run<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await request(this.signal);
    } catch (error) {
      throw this.failure(error);
    } finally {
      this.release();
    }
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, this.timeoutMs);
  }

  private timeoutError(): UpstreamTimeoutError {
    return new UpstreamTimeoutError(`${this.provider} did not answer within ${this.timeoutMs} ms`);
  }
}
