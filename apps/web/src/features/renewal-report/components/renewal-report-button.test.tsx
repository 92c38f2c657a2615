import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RenewalReportQuerySchema } from '@flotte/contract';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { authStore } from '../../../lib/auth-store';
import { apiErrorBody, mockFetch } from '../../../test/mock-fetch';
import { makeUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { RenewalReportButton } from './renewal-report-button';

const FILE_NAME = 'rapport-sinistralite-transports-martin-2026-01-01-2026-06-30.pdf';
// Bytes, not a jsdom Blob: the Response of Node's fetch cannot read the latter.
const PDF = new TextEncoder().encode('%PDF-1.3 rapport');
let saved: { href: string; download: string }[];
let objectUrls: Blob[];

beforeEach(() => {
  authStore.setSession('jeton-de-session', makeUser({ roles: ['USER'] }));
  saved = [];
  objectUrls = [];
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (objectUrls.push(blob), `blob:rapport-${objectUrls.length}`), revokeObjectURL: vi.fn() }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

function renderButton(props: Parameters<typeof RenewalReportButton>[0]) {
  return renderWithProviders(
    <>
      <RenewalReportButton {...props} />
      <SnackbarHost />
    </>,
  );
}

describe('<RenewalReportButton />', () => {
  it('fetches the window’s PDF with the session’s token and saves it under the server’s file name', async () => {
    let release: () => void = () => {};
    const answered = new Promise<void>((resolve) => (release = resolve));
    const { calls, fetchMock } = mockFetch([
      {
        path: '/api/dashboard/renewal-report',
        respond: () => ({ body: PDF, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${FILE_NAME}"` } }),
      },
    ]);
    const original = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (...args) => {
      await answered;
      return original(...args);
    });
    renderButton({ startDate: '2026-01-01', endDate: '2026-06-30', isDeclared: true });
    const button = screen.getByRole('button', { name: 'Rapport de sinistralité' });
    await userEvent.click(button);
    // Busy while the PDF is on its way: a second click sends nothing.
    await waitFor(() => expect(button).toBeDisabled());
    release();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ href: 'blob:rapport-1', download: FILE_NAME });
    expect(await objectUrls[0]!.text()).toBe('%PDF-1.3 rapport');
    expect(button).toBeEnabled();
    expect(calls).toHaveLength(1);
    const request = calls[0]!;
    expect(request.headers.get('authorization')).toBe('Bearer jeton-de-session');
    expect(request.headers.get('accept')).toContain('application/pdf');
    const query = Object.fromEntries(new URL(request.url).searchParams);
    expect(query).toEqual({ startDate: '2026-01-01', endDate: '2026-06-30', isDeclared: 'true' });
    expect(RenewalReportQuerySchema.safeParse(query).success).toBe(true);
  });

  it('without a window, lets the API choose its default one', async () => {
    const { calls } = mockFetch([
      { path: '/api/dashboard/renewal-report', respond: () => ({ body: PDF, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${FILE_NAME}"` } }) },
    ]);
    renderButton({});
    await userEvent.click(screen.getByRole('button', { name: 'Rapport de sinistralité' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(new URL(calls[0]!.url).search).toBe('');
  });

  it('shows the API’s French refusal in the snackbar and saves nothing', async () => {
    mockFetch([
      {
        path: '/api/dashboard/renewal-report',
        status: 400,
        body: apiErrorBody(400, 'Requête invalide', [{ path: 'endDate', message: 'La date de début doit précéder la date de fin' }]),
      },
    ]);
    renderButton({ startDate: '2026-06-30', endDate: '2026-01-01' });
    const button = screen.getByRole('button', { name: 'Rapport de sinistralité' });
    await userEvent.click(button);
    expect(await screen.findByText('Requête invalide')).toBeInTheDocument();
    expect(saved).toHaveLength(0);
    expect(button).toBeEnabled();
  });

  it('says so in French when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    renderButton({});
    await userEvent.click(screen.getByRole('button', { name: 'Rapport de sinistralité' }));
    expect(await screen.findByText(/Impossible de joindre le serveur/)).toBeInTheDocument();
    expect(saved).toHaveLength(0);
  });
});
