export const CHUNK_RELOAD_KEY = 'flotteassur:chunk-reload-at';
export const CHUNK_RELOAD_INTERVAL_MS = 60_000;

const CHUNK_ERROR_PATTERNS = [
  'failed to fetch dynamically imported module', // Chromium
  'error loading dynamically imported module', // Firefox
  'importing a module script failed', // Safari
  'unable to preload css',
];

/** A lazy route or chunk that no longer exists on the server, typically after a new deployment. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ChunkLoadError') return true;
  const message = error.message.toLowerCase();
  return CHUNK_ERROR_PATTERNS.some((pattern) => message.includes(pattern));
}

type GuardEnv = {
  now?: number;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  reload?: () => void;
};

/**
 * Reloads the page to fetch the new build, at most once per minute: if the chunk is really gone,
 * a second failure shows the error page instead of looping.
 * Returns true when a reload was started.
 */
export function reloadOnceForChunkError(env: GuardEnv = {}): boolean {
  const { now = Date.now(), storage = window.sessionStorage, reload = () => window.location.reload() } = env;
  let last = Number.NaN;
  try {
    last = Number(storage.getItem(CHUNK_RELOAD_KEY));
  } catch {
    // Storage may be blocked (private mode): then reloading once is still better than failing.
  }
  if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_INTERVAL_MS) return false;
  try {
    storage.setItem(CHUNK_RELOAD_KEY, String(now));
  } catch {
    return false;
  }
  reload();
  return true;
}

/** Wraps a dynamic import: a chunk error reloads the page (guarded), anything else is rethrown. */
export function withChunkReload<T>(importer: () => Promise<T>, env?: GuardEnv): () => Promise<T> {
  return async () => {
    try {
      return await importer();
    } catch (error) {
      if (isChunkLoadError(error) && reloadOnceForChunkError(env)) {
        // The page is going away: never settle, so nothing renders an error in the meantime.
        return new Promise<T>(() => {});
      }
      throw error;
    }
  };
}
