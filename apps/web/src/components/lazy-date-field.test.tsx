import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { LazyDateField, loadDateField } from './lazy-date-field';

function Owner({ onChange }: { onChange: (value: string | null) => void }) {
  const [value, setValue] = useState<string | null>('2025-01-01');
  return (
    <LazyDateField
      label="Du"
      size="small"
      value={value}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
    />
  );
}

const dateInput = () => screen.getAllByLabelText('Du').find((element): element is HTMLInputElement => element instanceof HTMLInputElement)!;

describe('<LazyDateField />', () => {
  it('shows the date in a read-only stand-in, then the French picker once it has arrived, focus kept', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Owner onChange={onChange} />);
    // First paint: no picker yet, the date in the same place.
    expect(screen.queryByRole('spinbutton', { name: 'Jour' })).not.toBeInTheDocument();
    expect(dateInput()).toHaveValue('01/01/2025');
    expect(dateInput()).toHaveAttribute('readonly');
    fireEvent.focus(dateInput());

    await loadDateField();
    const day = await screen.findByRole('spinbutton', { name: 'Jour' });
    await waitFor(() => expect(day).toHaveFocus());
    expect(dateInput()).toHaveValue('01/01/2025');
    fireEvent.change(dateInput(), { target: { value: '15/02/2025' } });
    expect(onChange).toHaveBeenLastCalledWith('2025-02-15');
  });

  it('renders the picker at once when it is already there', () => {
    renderWithProviders(<Owner onChange={() => undefined} />);
    expect(screen.getByRole('spinbutton', { name: 'Jour' })).toBeInTheDocument();
  });
});
