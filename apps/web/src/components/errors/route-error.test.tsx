import { screen } from '@testing-library/react';
import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { renderRoutes } from '../../test/render';
import { describeError, RouteError } from './route-error';

describe('describeError', () => {
  it('reads the status from the error, then from its response, 500 by default', () => {
    expect(describeError(new ApiError(403, 'Accès refusé'))).toEqual({ statusCode: 403, message: 'Accès refusé' });
    expect(describeError({ response: { status: 502 }, message: 'Passerelle' })).toEqual({ statusCode: 502, message: 'Passerelle' });
    expect(describeError(new Error('Unknown middleware'))).toEqual({ statusCode: 500, message: 'Unknown middleware' });
    expect(describeError(null)).toEqual({ statusCode: 500, message: 'Une erreur inattendue est survenue.' });
  });

  it('says the reference of a server error, from an ApiError or a thrown answer', () => {
    expect(describeError(new ApiError(503, 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.', '', [], 2, 'Zx81-kd_Q0aPw7Lr'))).toEqual({
      statusCode: 503,
      message: 'Le service est très sollicité en ce moment : réessayez dans quelques secondes. Référence : Zx81-kd_Q0aPw7Lr',
    });
    const thrown = new ErrorResponseImpl(500, 'Internal Server Error', { message: 'Une erreur interne est survenue. Veuillez réessayer.', requestId: 'Ab12Cd34Ef56Gh78' });
    expect(describeError(thrown).message).toBe('Une erreur interne est survenue. Veuillez réessayer. Référence : Ab12Cd34Ef56Gh78');
  });
});

describe('<RouteError />', () => {
  it('shows the status and message of a failed route, with a way back for a 404', async () => {
    renderRoutes(
      [
        {
          path: '/',
          errorElement: <RouteError />,
          hydrateFallbackElement: <p>Chargement</p>,
          loader: () => {
            throw new ApiError(404, 'Véhicule introuvable');
          },
          element: <p>jamais</p>,
        },
      ],
      '/',
    );
    expect(await screen.findByRole('heading', { name: 'Véhicule introuvable' })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
  });

  it('shows the reference of a server error on the page', async () => {
    renderRoutes(
      [
        {
          path: '/',
          errorElement: <RouteError />,
          hydrateFallbackElement: <p>Chargement</p>,
          loader: () => {
            throw new ApiError(500, 'Une erreur interne est survenue. Veuillez réessayer.', 'Internal Server Error', [], null, 'Qw3rTy_u1o-P4s5d');
          },
          element: <p>jamais</p>,
        },
      ],
      '/',
    );
    expect(await screen.findByText(/Référence : Qw3rTy_u1o-P4s5d/)).toBeInTheDocument();
    expect(screen.getByText('500')).toBeInTheDocument();
  });

  it('offers to reload for other errors', async () => {
    renderRoutes(
      [
        {
          path: '/',
          errorElement: <RouteError />,
          hydrateFallbackElement: <p>Chargement</p>,
          loader: () => {
            throw new Error('Unknown middleware');
          },
          element: <p>jamais</p>,
        },
      ],
      '/',
    );
    expect(await screen.findByRole('heading', { name: 'Unknown middleware' })).toBeInTheDocument();
    expect(screen.getByText('500')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Recharger la page' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: "Retour à l'accueil" })).not.toBeInTheDocument();
  });
});
