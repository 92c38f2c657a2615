import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { format } from 'node:util';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetApiClient } from '../lib/api-client';
import { authStore } from '../lib/auth-store';
import { snackbar } from '../components/snackbar/snackbar';

// findBy*/waitFor wait up to 5 s: on a 2-core CI machine also running the API suites, 1 s is not
// enough for a lazy route to render; a real hang still fails.
configure({ asyncUtilTimeout: 5000 });

// A console.error in a test (React warning, failed prop type, act() warning…) fails it.
let consoleErrors: string[] = [];

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(format(...args));
  });
});

afterEach(() => {
  cleanup();
  snackbar.hide();
  authStore.reset();
  resetApiClient();
  window.sessionStorage.clear();
  const errors = consoleErrors;
  consoleErrors = [];
  if (errors.length > 0) {
    throw new Error(`console.error was called:\n${errors.join('\n---\n')}`);
  }
});
