import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../lib/api-error';

/**
 * Puts the API's validation details ({ path, message }, French) under the matching form fields.
 * Details about other paths are left to the snackbar that shows the error's message. `aliases`
 * names the field of an API path the form calls otherwise (the API's `newPassword` is the form's
 * `password`). Returns true when at least one field got a message.
 */
export function setServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  aliases: Readonly<Record<string, Path<T>>> = {},
): boolean {
  if (!(error instanceof ApiError)) return false;
  let mapped = false;
  for (const detail of error.details) {
    const field = aliases[detail.path] ?? fields.find((name) => name === detail.path);
    if (!field) continue;
    setError(field, { type: 'server', message: detail.message }, { shouldFocus: !mapped });
    mapped = true;
  }
  return mapped;
}
