import dayjs from 'dayjs';
import 'dayjs/locale/fr';

dayjs.locale('fr');

/** `2025-03-07` or `2025-03-07T…` → `07/03/2025`; empty for nothing or an invalid date. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('DD/MM/YYYY') : '';
}

// The contract owns these rules, so the web shows exactly what the API validates:
// phones (E.164 in, `06 12 34 56 78` out), amounts (`1 234,56 €`) and plates (`AB-123-CD`).
export { formatEuros, formatPhone, formatPlate } from '@flotte/contract';

/** `plural(12, 'véhicule')` → '12 véhicules'. French: 0 and 1 take the singular. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString('fr-FR')} ${count > 1 ? pluralForm : singular}`;
}
