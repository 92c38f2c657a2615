const amountFormat = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 1234.5 → '1 234,50' for an amount field (the euro sign sits beside the field). */
export function formatAmountInput(amount: number | null | undefined): string {
  return amount === null || amount === undefined ? '' : amountFormat.format(amount);
}

/**
 * Reads an amount typed the French way: '1 234,56', '1234,56 €', '1.234,56', or '1234.56'.
 * Spaces (also non-breaking ones) and the euro sign are ignored; with both a dot and a comma the
 * last one is the decimal separator. Returns null for an empty field, NaN for anything else that
 * is not a number.
 */
export function parseAmountInput(text: string): number | null {
  let value = text.replace(/[\s\u00a0\u202f€]/g, '');
  if (value === '') return null;
  const comma = value.lastIndexOf(',');
  const dot = value.lastIndexOf('.');
  if (comma !== -1 && dot !== -1) {
    const thousands = comma > dot ? '.' : ',';
    value = value.split(thousands).join('');
  }
  value = value.replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
}
