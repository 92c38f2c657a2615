// The values of a date field, apart from the field itself (date-field.tsx brings
// @mui/x-date-pickers): a filter or a form rule can read them without loading the pickers.

/**
 * What a date field reports while the typed date is incomplete or impossible (31/02): not an ISO
 * date, so a contract schema refuses it (a form cannot be sent) and a filter keeps its last date.
 */
export const INVALID_DATE = 'date-invalide';

/** Said under a date field holding INVALID_DATE. */
export const INVALID_DATE_MESSAGE = 'Date incomplète ou invalide (JJ/MM/AAAA)';
