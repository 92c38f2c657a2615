import { useSyncExternalStore } from 'react';

export type SnackbarType = 'success' | 'error' | 'info' | 'loading';

export type SnackbarEvent = {
  type?: SnackbarType;
  title: string;
  description?: string;
  /** Percent shown by a `loading` snackbar; capped to 0–100. */
  progress?: number;
  /** Adds an 'Annuler' button calling this. */
  undo?: () => void;
  /** Milliseconds before hiding; ignored by `loading`, which stays until replaced. */
  duration?: number;
};

export type SnackbarMessage = Readonly<{
  id: number;
  type: SnackbarType;
  title: string;
  description?: string;
  progress: number;
  undo?: () => void;
}>;

export const SNACKBAR_DEFAULT_DURATION_MS = 3500;

let current: SnackbarMessage | null = null;
let nextId = 1;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function emit(message: SnackbarMessage | null) {
  current = message;
  for (const listener of listeners) listener();
}

export function clampProgress(progress: number | undefined): number {
  if (progress === undefined || Number.isNaN(progress)) return 0;
  return Math.min(100, Math.max(0, progress));
}

/** The one way every feature tells the user something happened. */
export const snackbar = {
  /** Shows the event, replacing the one on screen; returns its id. */
  show(event: SnackbarEvent): number {
    clearTimeout(hideTimer);
    const type = event.type ?? 'info';
    const id = nextId++;
    emit({
      id,
      type,
      title: event.title,
      description: event.description,
      progress: clampProgress(event.progress),
      undo: event.undo,
    });
    if (type !== 'loading') {
      hideTimer = setTimeout(() => snackbar.hide(id), event.duration ?? SNACKBAR_DEFAULT_DURATION_MS);
    }
    return id;
  },
  /** Hides the current snackbar, or only the given one if it is still on screen. */
  hide(id?: number) {
    if (!current || (id !== undefined && current.id !== id)) return;
    clearTimeout(hideTimer);
    emit(null);
  },
  getCurrent: (): SnackbarMessage | null => current,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSnackbarMessage(): SnackbarMessage | null {
  return useSyncExternalStore(snackbar.subscribe, snackbar.getCurrent, snackbar.getCurrent);
}
