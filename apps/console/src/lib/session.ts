/**
 * The console's session. The access token lives in this object's memory only; the refresh token is an
 * HttpOnly cookie the browser keeps and the console never sees (CONSOLE.md "Session and security").
 * A request answered 401 triggers one silent refresh (shared by every request waiting on it), then one
 * retry; a failed refresh signs the console out.
 */

/** The header that asks the API for the cookie session and proves a cookie refresh is not a forged request. */
export const SESSION_HEADER = 'X-AP-Session';
export const SESSION_HEADER_VALUE = 'cookie';

export interface SessionUser {
  id: string;
  email: string;
  displayName?: string | null;
  role: string;
}

export type SessionState =
  | { status: 'unknown' }
  | { status: 'signed-out'; reason?: 'expired' | 'signed-out' }
  | { status: 'signed-in'; user: SessionUser };

type Fetch = (input: Request) => Promise<Response>;

export class Session {
  private accessToken: string | null = null;
  private state: SessionState = { status: 'unknown' };
  private readonly listeners = new Set<() => void>();
  private refreshing: Promise<boolean> | null = null;

  constructor(private readonly baseFetch: Fetch = (input) => globalThis.fetch(input), private readonly origin = '') {}

  getState = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Whether an access token is held (in memory). */
  hasAccessToken(): boolean {
    return this.accessToken !== null;
  }

  private setState(state: SessionState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  private url(path: string): string {
    return `${this.origin}${path}`;
  }

  private async authCall(path: string, body?: unknown): Promise<Response> {
    return this.baseFetch(
      new Request(this.url(path), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', [SESSION_HEADER]: SESSION_HEADER_VALUE },
        body: JSON.stringify(body ?? {}),
      }),
    );
  }

  /** Signs in with e-mail and password (or registers, creates the admin with the setup link, or exchanges an OAuth/SSO code); the answer's error body is thrown as is. */
  async signIn(kind: 'login' | 'register' | 'setup' | 'exchange', body: unknown): Promise<SessionUser> {
    const path = { login: '/api/auth/login', register: '/api/auth/register', setup: '/api/auth/setup', exchange: '/api/auth/oauth/exchange' }[kind];
    const res = await this.authCall(path, body);
    const json = (await res.json().catch(() => null)) as { user?: SessionUser; access_token?: string } | null;
    if (!res.ok || !json?.access_token || !json.user) throw new SessionError(res.status, json);
    this.accessToken = json.access_token;
    this.setState({ status: 'signed-in', user: json.user });
    return json.user;
  }

  /**
   * Trades the refresh cookie for a new access token. Concurrent callers share one refresh, so a burst of
   * 401s spends the (single-use) refresh token once.
   */
  refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      try {
        const res = await this.authCall('/api/auth/refresh');
        const json = (await res.json().catch(() => null)) as { access_token?: string } | null;
        if (!res.ok || !json?.access_token) {
          this.accessToken = null;
          this.setState({ status: 'signed-out', reason: this.state.status === 'signed-in' ? 'expired' : undefined });
          return false;
        }
        this.accessToken = json.access_token;
        return true;
      } catch {
        return false; // the network failed: keep the state, the caller shows the failure
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  /** At start: a kept cookie turns into a signed-in console without a sign-in screen. */
  async restore(): Promise<void> {
    if (!(await this.refresh())) {
      if (this.state.status === 'unknown') this.setState({ status: 'signed-out' });
      return;
    }
    const res = await this.fetch(new Request(this.url('/api/auth/me')));
    if (res.ok) this.setState({ status: 'signed-in', user: (await res.json()) as SessionUser });
    else this.setState({ status: 'signed-out' });
  }

  /** Revokes the session family on the server, clears the cookie and forgets the access token. */
  async signOut(): Promise<void> {
    try {
      await this.authCall('/api/auth/logout');
    } finally {
      this.accessToken = null;
      this.setState({ status: 'signed-out', reason: 'signed-out' });
    }
  }

  /** Updates the signed-in user (after a profile change). */
  setUser(user: SessionUser): void {
    this.setState({ status: 'signed-in', user });
  }

  /** `fetch` for API calls: the bearer token added, one silent refresh and retry on 401. */
  fetch = async (request: Request): Promise<Response> => {
    const retry = request.clone();
    const first = await this.baseFetch(this.authorize(request));
    if (first.status !== 401 || this.accessToken === null) return first;
    if (!(await this.refresh())) return first;
    return this.baseFetch(this.authorize(retry));
  };

  private authorize(request: Request): Request {
    if (this.accessToken) request.headers.set('Authorization', `Bearer ${this.accessToken}`);
    return request;
  }
}

/** A failed sign-in, carrying the API's error body (`{ statusCode, message, error, details? }`). */
export class SessionError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : `Request failed (${status})`);
  }
}
