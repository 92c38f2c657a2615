import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withPointerAndIdle } from '../../../test/media';
import { renderWithProviders } from '../../../test/render';

/** A fresh copy of the module (its "already loaded" state is per module instance). */
async function freshLazyFormulaTooltip() {
  vi.resetModules();
  return (await import('./lazy-formula-tooltip')).LazyFormulaTooltip;
}

const FORMULA = 'S/P = coût des sinistres ÷ primes acquises × 100';

describe('<LazyFormulaTooltip />', () => {
  beforeEach(() => vi.useRealTimers());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('on a touch screen, shows the plain (i) until it is touched, then the formula', async () => {
    withPointerAndIdle('coarse');
    const LazyFormulaTooltip = await freshLazyFormulaTooltip();
    renderWithProviders(<LazyFormulaTooltip label="Calcul : S/P" formula={FORMULA} />);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const standIn = screen.getByRole('button', { name: 'Calcul : S/P' });
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    fireEvent.touchStart(standIn);
    expect(await screen.findByRole('tooltip', {}, { timeout: 5000 })).toHaveTextContent(FORMULA);
  });

  it('a focused (i) keeps the focus when the tooltip arrives, and shows the formula', async () => {
    withPointerAndIdle('coarse');
    const LazyFormulaTooltip = await freshLazyFormulaTooltip();
    renderWithProviders(<LazyFormulaTooltip label="Calcul : S/P" formula={FORMULA} />);
    screen.getByRole('button', { name: 'Calcul : S/P' }).focus();
    expect(await screen.findByRole('tooltip', {}, { timeout: 5000 })).toHaveTextContent(FORMULA);
    expect(screen.getByRole('button', { name: 'Calcul : S/P' })).toHaveFocus();
  });

  it('with a mouse, fetches the tooltip once the page is idle: hovering the (i) shows the formula', async () => {
    withPointerAndIdle('fine');
    const LazyFormulaTooltip = await freshLazyFormulaTooltip();
    const { loadFormulaTooltip } = await import('./lazy-formula-tooltip');
    renderWithProviders(<LazyFormulaTooltip label="Calcul : S/P" formula={FORMULA} />);
    await loadFormulaTooltip();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    fireEvent.mouseOver(screen.getByRole('button', { name: 'Calcul : S/P' }));
    expect(await screen.findByRole('tooltip', {}, { timeout: 5000 })).toHaveTextContent(FORMULA);
  });
});
