import { vi } from 'vitest';

/**
 * jsdom has no window.matchMedia; MUI's useMediaQuery and our own checks read it. A test stubs it
 * here with the queries that match, and undoes it with vi.unstubAllGlobals() in its afterEach.
 */
export function stubMediaQueries(matches: (query: string) => boolean): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matches(query),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  }));
}

/** A phone's width: MUI's `down(…)` queries (max-width) match, `up(…)` ones do not. */
export function onAPhone(): void {
  stubMediaQueries((query) => query.includes('max-width'));
}

/** A screen whose main pointer is a finger (coarse) or a mouse (fine), any width. */
export function withPointer(pointer: 'coarse' | 'fine'): void {
  stubMediaQueries((query) => query.includes(`pointer: ${pointer}`));
}

/**
 * withPointer, and the browser's idle callbacks (jsdom has none) run at the next turn: what a page
 * fetches « once idle with a mouse » (lib/idle-preload.ts) comes at once in a test.
 */
export function withPointerAndIdle(pointer: 'coarse' | 'fine'): void {
  withPointer(pointer);
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => window.setTimeout(callback, 0));
  vi.stubGlobal('cancelIdleCallback', (handle: number) => window.clearTimeout(handle));
}
