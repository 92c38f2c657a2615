import { useSyncExternalStore } from 'react';
import type { User } from '@flotte/contract';

export type AuthState = Readonly<{
  /** Access token, kept in memory only: the refresh cookie restores it after a reload. */
  token: string | null;
  user: User | null;
  /** True right after a deliberate logout, so the guard sends the user to `/` instead of `/refresh`. */
  loggedOut: boolean;
}>;

const initialState: AuthState = { token: null, user: null, loggedOut: false };

let state: AuthState = initialState;
const listeners = new Set<() => void>();

function setState(next: AuthState) {
  state = next;
  for (const listener of listeners) listener();
}

export const authStore = {
  getState: (): AuthState => state,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  setToken(token: string) {
    setState({ ...state, token, loggedOut: false });
  },
  setUser(user: User | null) {
    setState({ ...state, user });
  },
  setSession(token: string, user: User) {
    setState({ token, user, loggedOut: false });
  },
  /** Forgets token and user; `reason: 'logout'` marks a deliberate logout. */
  clear(reason: 'logout' | 'expired' = 'expired') {
    setState({ token: null, user: null, loggedOut: reason === 'logout' });
  },
  /** Tests only: back to a fresh page load. */
  reset() {
    setState(initialState);
  },
};

export function useAuth(): AuthState {
  return useSyncExternalStore(authStore.subscribe, authStore.getState, authStore.getState);
}

export function useCurrentUser(): User | null {
  return useAuth().user;
}
