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

  it('shows a summary in parts as one line, each part a block of its own on a phone', () => {
    renderWithProviders(<RegisterPageHeader texts={TEXTS} summary={['12 sinistres · 45 300,00 €', 'du 01/01/2026 au 25/11/2026']} onAdd={() => undefined} />);
    const line = screen.getByRole('heading', { level: 1 }).nextElementSibling!;
    expect(line.textContent).toBe('12 sinistres · 45 300,00 € du 01/01/2026 au 25/11/2026');
    const parts = [...line.children];
    expect(parts.map((part) => part.textContent)).toEqual(['12 sinistres · 45 300,00 €', ' du 01/01/2026 au 25/11/2026']);
    // The test renders at jsdom's 1024 px: one line (inline); below 600 px each part is a block.
    for (const part of parts) expect(getComputedStyle(part).display).toBe('inline');
  });

  it('keeps the summary’s room while it loads', () => {
    renderWithProviders(<RegisterPageHeader texts={TEXTS} onAdd={() => undefined} />);
    expect(screen.getByRole('heading', { level: 1 }).nextElementSibling).toBeEmptyDOMElement();
  });
});
