import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { DateField, INVALID_DATE } from './date-field';

function setup(props: { value?: string | null; minDate?: string; maxDate?: string; error?: string } = {}) {
  const onChange = vi.fn();
  function Owner() {
    const [value, setValue] = useState<string | null>(props.value ?? null);
    return (
      <DateField
        label="Date de sortie"
        value={value}
        minDate={props.minDate}
        maxDate={props.maxDate}
        error={props.error}
        helperText="Facultatif"
        onChange={(next, change) => {
          onChange(next, change);
          setValue(next);
        }}
      />
    );
  }
  renderWithProviders(<Owner />);
  const input = screen
    .getAllByLabelText(/Date de sortie/)
    .find((element): element is HTMLInputElement => element instanceof HTMLInputElement)!;
  return { onChange, input };
}

describe('<DateField />', () => {
  it('shows an ISO date the French way and reports a typed one as ISO', () => {
    const { input, onChange } = setup({ value: '2025-03-07' });
    expect(input).toHaveValue('07/03/2025');
    fireEvent.change(input, { target: { value: '15/04/2025' } });
    expect(onChange).toHaveBeenLastCalledWith('2025-04-15', { picked: false });
  });

  it('reports an impossible date as INVALID_DATE and says why once left', async () => {
    const { onChange } = setup();
    const ui = userEvent.setup();
    // Typed day by day: 31/02 is no date.
    await ui.type(screen.getByRole('spinbutton', { name: 'Jour' }), '31022025');
    expect(onChange).toHaveBeenLastCalledWith(INVALID_DATE, { picked: false });
    expect(screen.getByText('Facultatif')).toBeInTheDocument();
    await ui.click(document.body);
    expect(await screen.findByText('Date incomplète ou invalide (JJ/MM/AAAA)')).toBeInTheDocument();
  });

  it('keeps a date typed only in part, and says it is incomplete once left', async () => {
    setup();
    const ui = userEvent.setup();
    await ui.type(screen.getByRole('spinbutton', { name: 'Jour' }), '15');
    // Leaving the field: the month and year are still missing.
    await ui.click(document.body);
    await waitFor(() => expect(screen.getByText('Date incomplète ou invalide (JJ/MM/AAAA)')).toBeInTheDocument());
    expect(screen.getByRole('spinbutton', { name: 'Jour' })).toHaveTextContent('15');
  });

  it('says the bounds in French', async () => {
    const { input, onChange } = setup({ minDate: '2022-01-10' });
    fireEvent.change(input, { target: { value: '01/01/2020' } });
    expect(onChange).toHaveBeenLastCalledWith(INVALID_DATE, { picked: false });
    // Leaving the field.
    await userEvent.setup().click(screen.getByRole('spinbutton', { name: 'Jour' }));
    await userEvent.setup().click(document.body);
    expect(await screen.findByText('La date doit être postérieure ou égale au 10/01/2022')).toBeInTheDocument();
  });

  it('shows its owner’s message at once', () => {
    setup({ value: '2025-03-07', error: 'La date de sortie doit être postérieure ou égale à la date d’entrée' });
    expect(screen.getByText('La date de sortie doit être postérieure ou égale à la date d’entrée')).toBeInTheDocument();
  });
});
