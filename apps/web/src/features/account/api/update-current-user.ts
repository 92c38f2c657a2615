import { useMutation } from '@tanstack/react-query';
import { updateCurrentUser } from '../../../lib/session';

/** PATCH /api/user/{uuid} for the connected user; the store gets the returned user. */
export function useUpdateCurrentUser() {
  return useMutation({ mutationFn: updateCurrentUser });
}
