import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { RegisterPageHeader } from './register-page-header';
import { registerTexts } from './register-texts';

const TEXTS = registerTexts({ one: 'conducteur' });

describe('<RegisterPageHeader />', () => {
  it('titles the page, says what the register holds and offers to add to it', async () => {
    const onAdd = vi.fn();
    renderWithProviders(<RegisterPageHeader texts={TEXTS} summary={TEXTS.counts({ active: 12, archived: 3 })} onAdd={onAdd} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Conducteurs' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Conducteurs — FlotteAssur'));
    expect(screen.getByText('12 conducteurs actifs · 3 archivés')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Ajouter un conducteur' }));
    expect(onAdd).toHaveBeenCalledOnce();
  });

  it('keeps the summary’s room while it loads', () => {
    renderWithProviders(<RegisterPageHeader texts={TEXTS} onAdd={() => undefined} />);
    expect(screen.getByRole('heading', { level: 1 }).nextElementSibling).toBeEmptyDOMElement();
  });
});
