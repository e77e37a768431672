import { useSyncExternalStore } from 'react';
import { session } from '../api/client';
import type { SessionState } from './session';

/** The session's state, re-rendering on sign-in, refresh failure and sign-out. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState);
}
