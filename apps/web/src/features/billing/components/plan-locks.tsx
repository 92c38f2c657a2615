import type { BillingFeature } from '@flotte/contract';
import { useEffect } from 'react';
import { useLockedFeatures } from '../api/locked-features';

/**
 * Tells the sidebar which menu features the organization's plan leaves locked (decision 044).
 * Loaded on its own, and only for an organization outside any space: one inside a space has every
 * feature, so the registers' first load carries none of this.
 */
export function PlanLocks({ onChange }: { onChange: (locked: ReadonlySet<BillingFeature> | null) => void }) {
  // Told again only when the set changes (a new Set each render would loop); null: not known yet.
  const locked = useLockedFeatures();
  const key = locked === null ? null : [...locked].sort().join(',');
  useEffect(() => onChange(key === null ? null : new Set(key ? (key.split(',') as BillingFeature[]) : [])), [key, onChange]);
  return null;
}
