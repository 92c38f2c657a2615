import { refreshSession } from './api-client';
import { authStore } from './auth-store';
import { loadCurrentUser } from './session';

let restoring: Promise<boolean> | null = null;
/** The refresh step of the attempt under way. */
let refreshing: Promise<boolean> | null = null;

/**
 * A page opened cold (reload, new tab, a link from an e-mail) has no access token: trades the
 * HttpOnly refresh cookie for one and loads the current user. Concurrent callers share one
 * attempt. True when a session was restored (the user may still fail to load: the guard says so).
 */
export function restoreSession(): Promise<boolean> {
  restoring ??= (async () => {
    refreshing = refreshSession();
    const refreshed = await refreshing;
    if (refreshed) await loadCurrentUser();
    return refreshed;
  })().finally(() => {
    restoring = null;
    refreshing = null;
  });
  return restoring;
}

/**
 * True once the session's access token is there: as soon as the refresh of the attempt under way
 * has answered (the current user may still be loading), or at once when no attempt is under way.
 */
export function whenTokenReady(): Promise<boolean> {
  return refreshing ?? Promise.resolve(authStore.getState().token !== null);
}
