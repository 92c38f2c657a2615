import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { renderWithProviders } from '../../test/render';
import { RegisterErrorState } from './register-error-state';

describe('<RegisterErrorState />', () => {
  it('says why the list failed with the reference of a server error, and offers to try again', async () => {
    const onRetry = vi.fn();
    const error = new ApiError(503, 'Le service est très sollicité en ce moment : réessayez dans quelques secondes.', 'Service Unavailable', [], 2, 'Zx81-kd_Q0aPw7Lr');
    renderWithProviders(<RegisterErrorState error={error} onRetry={onRetry} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Le service est très sollicité en ce moment : réessayez dans quelques secondes. Référence : Zx81-kd_Q0aPw7Lr');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });
});
