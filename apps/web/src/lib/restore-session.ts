import { refreshSession } from './api-client';
import { loadCurrentUser } from './session';

let restoring: Promise<boolean> | null = null;

/**
 * A page opened cold (reload, new tab, a link from an e-mail) has no access token: trades the
 * HttpOnly refresh cookie for one and loads the current user. Concurrent callers share one
 * attempt. True when a session was restored (the user may still fail to load: the guard says so).
 */
export function restoreSession(): Promise<boolean> {
  restoring ??= (async () => {
    const refreshed = await refreshSession();
    if (refreshed) await loadCurrentUser();
    return refreshed;
  })().finally(() => {
    restoring = null;
  });
  return restoring;
}
