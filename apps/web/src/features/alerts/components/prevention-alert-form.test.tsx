import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { authStore } from '../../../lib/auth-store';
import { makeUser, ORG_A, ORG_B, page } from '../../../test/fixtures';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { PreventionAlertForm, toBody } from './prevention-alert-form';

const ENV = ORG_A.environment!.uuid;

describe('the prevention alert form', () => {
  it('builds the contract body from the fields', () => {
    const base = { title: 'T', body: 'B', severity: 'urgent', organizations: [ORG_A.uuid], rule: 'limitReached' as const, publishAt: '' };
    expect(toBody({ ...base, targetKind: 'all' })).toEqual({ title: 'T', body: 'B', severity: 'urgent', target: { kind: 'all' } });
    expect(toBody({ ...base, targetKind: 'organizations' }).target).toEqual({ kind: 'organizations', organizations: [ORG_A.uuid] });
    expect(toBody({ ...base, targetKind: 'rule' }).target).toEqual({ kind: 'rule', rule: 'limitReached' });
    expect(toBody({ ...base, targetKind: 'all', publishAt: '2026-12-01T08:30' }).publishAt).toBe(new Date('2026-12-01T08:30').toISOString());
  });

  it('says in French what is missing, and sends nothing', async () => {
    const api = mockFetch([{ path: '/api/organization/environment', body: page([ORG_A, ORG_B]) }]);
    authStore.setSession('token', makeUser({ roles: ['SUPERADMIN'] }));
    renderWithProviders(<PreventionAlertForm environment={ENV} />);
    await userEvent.setup().click(screen.getByRole('button', { name: "Publier l'alerte" }));
    expect(await screen.findByText('Le titre est obligatoire')).toBeInTheDocument();
    expect(screen.getByText('Le message est obligatoire')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('publishes for chosen organizations and shows the server’s refusal under its field', async () => {
    const api = mockFetch([
      { path: '/api/organization/environment', body: page([ORG_A, ORG_B]) },
      { method: 'POST', path: `/api/environment/${ENV}/alert`, status: 400, body: apiErrorBody(400, 'Données invalides', [{ path: 'title', message: 'Le titre : 200 caractères maximum' }]) },
    ]);
    authStore.setSession('token', makeUser({ roles: ['SUPERADMIN'] }));
    renderWithProviders(<PreventionAlertForm environment={ENV} />);
    const ui = userEvent.setup();
    await ui.type(screen.getByRole('textbox', { name: /Titre/ }), 'Pneus hiver');
    await ui.type(screen.getByRole('textbox', { name: /Message/ }), 'Contrôlez vos **pneus**.');
    await ui.click(screen.getByRole('radio', { name: 'Des organisations choisies' }));
    await ui.click(screen.getByRole('combobox', { name: /Organisations/ }));
    await ui.click(await screen.findByRole('option', { name: ORG_A.title }));
    await ui.keyboard('{Escape}');
    await ui.click(screen.getByRole('button', { name: "Publier l'alerte" }));
    expect(await screen.findByText('Le titre : 200 caractères maximum')).toBeInTheDocument();
    const post = api.calls.find((call) => call.method === 'POST')!;
    expect(await post.clone().json()).toEqual({ title: 'Pneus hiver', body: 'Contrôlez vos **pneus**.', severity: 'information', target: { kind: 'organizations', organizations: [ORG_A.uuid] } });
  });
});
