import { Suspense } from 'react';
import { lazyComponent } from '../../../components/lazy-component';

// Its own chunk: the account page's first load does not carry it (issue 10).
const TwoFactorSection = lazyComponent(() => import('./two-factor-section').then((module) => module.TwoFactorSection));

export function LazyTwoFactorSection() {
  return (
    <Suspense fallback={null}>
      <TwoFactorSection />
    </Suspense>
  );
}
