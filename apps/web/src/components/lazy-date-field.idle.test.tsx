import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { withPointer } from '../test/media';

/** A fresh copy of the module (its "already loaded" state is per module instance). */
async function freshLazyDateField() {
  vi.resetModules();
  return (await import('./lazy-date-field')).LazyDateField;
}

function pointer(fine: boolean) {
  withPointer(fine ? 'fine' : 'coarse');
  vi.stubGlobal('requestIdleCallback', (callback: () => void) => window.setTimeout(callback, 0));
  vi.stubGlobal('cancelIdleCallback', (handle: number) => window.clearTimeout(handle));
}

describe('<LazyDateField /> before any touch', () => {
  beforeEach(() => vi.useRealTimers());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('with a mouse, fetches the pickers once the page is idle', async () => {
    pointer(true);
    const LazyDateField = await freshLazyDateField();
    renderWithProviders(<LazyDateField label="Du" value="2025-01-01" onChange={() => undefined} />);
    expect(await screen.findByRole('spinbutton', { name: 'Jour' }, { timeout: 5000 })).toBeInTheDocument();
  });

  it('on a touch screen, keeps the stand-in until the field is touched or focused', async () => {
    pointer(false);
    const LazyDateField = await freshLazyDateField();
    renderWithProviders(<LazyDateField label="Du" value="2025-01-01" onChange={() => undefined} />);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('spinbutton', { name: 'Jour' })).not.toBeInTheDocument();
    const standIn = screen.getAllByLabelText('Du').find((element) => element instanceof HTMLInputElement)!;
    expect(standIn).toHaveValue('01/01/2025');
    standIn.focus();
    expect(await screen.findByRole('spinbutton', { name: 'Jour' }, { timeout: 5000 })).toBeInTheDocument();
  });
});
