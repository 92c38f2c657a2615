import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SnackbarHost } from '../../../components/snackbar/snackbar-host';
import { snackbar } from '../../../components/snackbar/snackbar';
import { authStore } from '../../../lib/auth-store';
import { makeUser } from '../../../test/fixtures';
import { mockFetch } from '../../../test/mock-fetch';
import { renderWithProviders } from '../../../test/render';
import { placement } from './avatar-crop-dialog';
import { AvatarSection } from './avatar-section';

afterEach(() => {
  snackbar.hide();
  authStore.reset();
});

describe('placement of the square crop', () => {
  it('covers the square at zoom 1 and keeps the frame inside the image however far it is dragged', () => {
    // A landscape photo: its height fills the 280 px square, its width overflows.
    const at = placement(1200, 800, { zoom: 1, x: 0, y: 0 });
    expect(at.h).toBe(280);
    expect(at.top).toBeCloseTo(0);
    expect(at.w).toBeCloseTo(420);
    const far = placement(1200, 800, { zoom: 1, x: 1000, y: -50 });
    expect(far.x).toBeCloseTo(70);
    expect(far.left).toBeCloseTo(0);
    expect(far.y).toBeCloseTo(0);
    const zoomed = placement(1200, 800, { zoom: 2, x: 0, y: -1000 });
    expect(zoomed.h).toBe(560);
    expect(zoomed.top + zoomed.h).toBe(280);
  });
});

describe('<AvatarSection />', () => {
  it('refuses a file that is not an image before anything is sent', async () => {
    const me = makeUser({ avatar: null });
    authStore.setSession('jeton', me);
    const { calls } = mockFetch([]);
    renderWithProviders(
      <>
        <AvatarSection user={me} />
        <SnackbarHost />
      </>,
    );
    fireEvent.change(screen.getByLabelText('Fichier de la photo de profil'), { target: { files: [new File(['%PDF'], 'contrat.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('Ce fichier n’est pas une image : choisissez une photo JPEG, PNG ou WebP.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('removes the photo, and the initials come back', async () => {
    const me = makeUser({ avatar: { url: '/api/user/x/avatar/abcdefghijklmnop' } });
    authStore.setSession('jeton', me);
    mockFetch([{ method: 'DELETE', path: '/api/user/avatar', body: { ...me, avatar: null } }]);
    renderWithProviders(
      <>
        <AvatarSection user={me} />
        <SnackbarHost />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Retirer la photo' }));
    expect(await screen.findByText('Photo retirée')).toBeInTheDocument();
    expect(authStore.getState().user?.avatar).toBeNull();
  });
});
