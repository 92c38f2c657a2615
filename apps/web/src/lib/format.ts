import dayjs from 'dayjs';
import 'dayjs/locale/fr';

dayjs.locale('fr');

/** `2025-03-07T…` → `07/03/2025`; empty for nothing or an invalid date. */
export function formatDate(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('DD/MM/YYYY') : '';
}

const amountFormat = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });

/** 1234.56 → `1 234,56 €` (French spacing: narrow no-break space for thousands). */
export function formatAmount(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return amountFormat.format(value);
}

// The contract owns phone parsing (E.164 in, `06 12 34 56 78` out): the web formats through it.
export { formatPhone } from '@flotte/contract';
