import { useMutation } from '@tanstack/react-query';
import { login } from '../../../lib/session';

/** POST /api/auth/login: stores the token and the user on success. */
export function useLogin() {
  return useMutation({ mutationFn: login });
}
