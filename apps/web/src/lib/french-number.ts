/** `36 600,50` or `36600.5` → 36600.5; anything else → NaN, which the contract refuses in French. */
export function parseFrenchNumber(text: string): number {
  const compact = text.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  return compact === '' || !/^-?\d+(\.\d+)?$/.test(compact) ? Number.NaN : Number(compact);
}
