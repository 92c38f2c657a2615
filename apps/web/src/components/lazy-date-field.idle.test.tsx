import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { withPointerAndIdle } from '../test/media';

/** A fresh copy of the module (its "already loaded" state is per module instance). */
async function freshLazyDateField() {
  vi.resetModules();
  return (await import('./lazy-date-field')).LazyDateField;
}

describe('<LazyDateField /> before any touch', () => {
  beforeEach(() => vi.useRealTimers());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('with a mouse, fetches the pickers once the page is idle', async () => {
    withPointerAndIdle('fine');
    const LazyDateField = await freshLazyDateField();
    renderWithProviders(<LazyDateField label="Du" value="2025-01-01" onChange={() => undefined} />);
    expect(await screen.findByRole('spinbutton', { name: 'Jour' }, { timeout: 5000 })).toBeInTheDocument();
  });

  it('on a touch screen, keeps the stand-in until the field is touched or focused', async () => {
    withPointerAndIdle('coarse');
    const LazyDateField = await freshLazyDateField();
    renderWithProviders(<LazyDateField label="Du" value="2025-01-01" onChange={() => undefined} />);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('spinbutton', { name: 'Jour' })).not.toBeInTheDocument();
    const standIn = screen.getAllByLabelText('Du').find((element) => element instanceof HTMLInputElement)!;
    expect(standIn).toHaveValue('01/01/2025');
    standIn.focus();
    expect(await screen.findByRole('spinbutton', { name: 'Jour' }, { timeout: 5000 })).toBeInTheDocument();
  });

  it('on a touch screen, a second field touched after the first one’s pickers arrived becomes a picker too', async () => {
    withPointerAndIdle('coarse');
    const LazyDateField = await freshLazyDateField();
    renderWithProviders(
      <>
        <LazyDateField label="Du" value="2025-01-01" onChange={() => undefined} />
        <LazyDateField label="Au" value="2025-12-31" onChange={() => undefined} />
      </>,
    );
    const standIn = (label: string) => screen.getAllByLabelText(label).find((element) => element instanceof HTMLInputElement)!;
    standIn('Du').focus();
    expect(await screen.findAllByRole('spinbutton', { name: 'Jour' }, { timeout: 5000 })).toHaveLength(1);
    expect(standIn('Au')).toHaveAttribute('readonly');
    standIn('Au').focus();
    await waitFor(() => expect(screen.getAllByRole('spinbutton', { name: 'Jour' })).toHaveLength(2), { timeout: 5000 });
  });
});
