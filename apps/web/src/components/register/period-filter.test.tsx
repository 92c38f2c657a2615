import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDateField } from '../lazy-date-field';
import { renderWithProviders } from '../../test/render';
import { PERIOD_TYPING_DELAY_MS, PeriodFilter, type Period } from './period-filter';

function setup(initial: Period, clearable = false) {
  const onChange = vi.fn<(period: Period) => void>();
  function Owner() {
    const [period, setPeriod] = useState(initial);
    return (
      <PeriodFilter
        legend="Période"
        start={period.start}
        end={period.end}
        clearable={clearable}
        onChange={(next) => {
          onChange(next);
          setPeriod(next);
        }}
      />
    );
  }
  renderWithProviders(<Owner />);
  const group = screen.getByRole('group', { name: 'Période' });
  /** The picker's hidden input takes a whole date typed or pasted as JJ/MM/AAAA. */
  const input = (label: string) =>
    within(group)
      .getAllByLabelText(label)
      .find((element): element is HTMLInputElement => element instanceof HTMLInputElement)!;
  return { group, onChange, input, type: (label: string, value: string) => fireEvent.change(input(label), { target: { value } }) };
}

describe('<PeriodFilter />', () => {
  // The pickers arrive after the list (LazyDateField): fetched once, up front.
  beforeAll(() => loadDateField());

  it('applies a typed date once the user pauses, not at each keystroke', async () => {
    const { type, onChange } = setup({ start: '2026-01-01', end: '2026-06-30' });
    const typedAt = Date.now();
    type('Du', '01/02/2026');
    expect(onChange).not.toHaveBeenCalled();
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ start: '2026-02-01', end: '2026-06-30' }));
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(PERIOD_TYPING_DELAY_MS - 50);
  });

  it('says when the end precedes the start, and keeps the last good period', async () => {
    const { type, onChange, group } = setup({ start: '2026-03-01', end: '2026-06-30' });
    type('Au', '01/02/2026');
    expect(await within(group).findByText('La date de début doit précéder la date de fin')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, PERIOD_TYPING_DELAY_MS + 100));
    expect(onChange).not.toHaveBeenCalled();
    type('Au', '31/03/2026');
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ start: '2026-03-01', end: '2026-03-31' }));
    expect(within(group).queryByText('La date de début doit précéder la date de fin')).not.toBeInTheDocument();
  });

  it('never applies an impossible date, and says why once the field is left', async () => {
    const { onChange, group } = setup({ start: '2026-01-01', end: '2026-06-30' });
    const ui = userEvent.setup();
    // Typed day by day: 31/02 is no date.
    await ui.type(within(group).getAllByRole('spinbutton', { name: 'Jour' })[0]!, '31022026');
    await ui.click(document.body);
    expect(await within(group).findByText('Date incomplète ou invalide (JJ/MM/AAAA)')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, PERIOD_TYPING_DELAY_MS + 100));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('opens a bound that is emptied, when the period may be open', async () => {
    const { group, onChange } = setup({ start: '2025-01-01', end: '' }, true);
    fireEvent.click(within(group).getAllByRole('button', { name: 'Effacer la valeur' })[0]!);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ start: '', end: '' }));
  });
});
