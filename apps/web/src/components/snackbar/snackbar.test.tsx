import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clampProgress, SNACKBAR_DEFAULT_DURATION_MS, snackbar } from './snackbar';
import { SnackbarHost } from './snackbar-host';

describe('snackbar store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to info and hides after 3500 ms', () => {
    snackbar.show({ title: 'Bonjour' });
    expect(snackbar.getCurrent()).toMatchObject({ type: 'info', title: 'Bonjour' });
    vi.advanceTimersByTime(SNACKBAR_DEFAULT_DURATION_MS - 1);
    expect(snackbar.getCurrent()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(snackbar.getCurrent()).toBeNull();
  });

  it('honours a given duration', () => {
    snackbar.show({ type: 'success', title: 'Enregistré', duration: 1000 });
    vi.advanceTimersByTime(999);
    expect(snackbar.getCurrent()?.title).toBe('Enregistré');
    vi.advanceTimersByTime(1);
    expect(snackbar.getCurrent()).toBeNull();
  });

  it('keeps a loading snackbar until another one replaces it', () => {
    snackbar.show({ type: 'loading', title: 'Import en cours', progress: 10 });
    vi.advanceTimersByTime(60_000);
    expect(snackbar.getCurrent()).toMatchObject({ type: 'loading', progress: 10 });

    snackbar.show({ type: 'success', title: 'Import terminé' });
    expect(snackbar.getCurrent()).toMatchObject({ type: 'success', title: 'Import terminé' });
    vi.advanceTimersByTime(SNACKBAR_DEFAULT_DURATION_MS);
    expect(snackbar.getCurrent()).toBeNull();
  });

  it('does not let the timer of a replaced snackbar hide the new one', () => {
    snackbar.show({ title: 'Premier', duration: 1000 });
    vi.advanceTimersByTime(900);
    snackbar.show({ title: 'Second', duration: 1000 });
    vi.advanceTimersByTime(500);
    expect(snackbar.getCurrent()?.title).toBe('Second');
  });

  it('caps the progress to 0–100', () => {
    expect(clampProgress(150)).toBe(100);
    expect(clampProgress(-3)).toBe(0);
    expect(clampProgress(undefined)).toBe(0);
    expect(clampProgress(42.5)).toBe(42.5);
  });
});

describe('<SnackbarHost />', () => {
  const renderHost = () =>
    render(
      <AppProviders>
        <SnackbarHost />
      </AppProviders>,
    );

  it('shows title and description, and closes with the Fermer button', async () => {
    const user = userEvent.setup();
    renderHost();
    act(() => {
      snackbar.show({ type: 'success', title: 'Envoi du bug', description: 'Votre bug a bien été envoyé' });
    });
    expect(screen.getByText('Envoi du bug')).toBeInTheDocument();
    expect(screen.getByText('Votre bug a bien été envoyé')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Fermer' }));
    expect(snackbar.getCurrent()).toBeNull();
  });

  it('shows a progress bar with its percent capped at 100 % for type loading', () => {
    renderHost();
    act(() => {
      snackbar.show({ type: 'loading', title: 'Import des véhicules', progress: 180 });
    });
    const bar = screen.getByRole('progressbar', { name: 'Import des véhicules' });
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByText('100 %')).toBeInTheDocument();

    act(() => {
      snackbar.show({ type: 'loading', title: 'Import des véhicules', progress: 42.4 });
    });
    expect(screen.getByText('42 %')).toBeInTheDocument();
  });

  it('offers Annuler only with an undo action, which it calls before hiding', async () => {
    const user = userEvent.setup();
    const undo = vi.fn();
    renderHost();
    act(() => {
      snackbar.show({ title: 'Conducteur archivé' });
    });
    expect(screen.queryByRole('button', { name: 'Annuler' })).not.toBeInTheDocument();

    act(() => {
      snackbar.show({ title: 'Conducteur archivé', undo });
    });
    await user.click(screen.getByRole('button', { name: 'Annuler' }));
    expect(undo).toHaveBeenCalledOnce();
    expect(snackbar.getCurrent()).toBeNull();
  });
});
