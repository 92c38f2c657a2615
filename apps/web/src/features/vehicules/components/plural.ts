/** `plural(12, 'véhicule')` → '12 véhicules'; French: 0 and 1 take the singular. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`) {
  return `${count.toLocaleString('fr-FR')} ${count > 1 ? pluralForm : singular}`;
}
