import { Suspense } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { PageLoader } from '../../../components/page-loader';

const Page = lazyComponent(() => import('../../../features/billing/components/plans-page').then((m) => m.PlansPage));

/** /parameters/plans: the plans and the current one (issue 17, decision 044). */
export default function Route() {
  return (
    <Suspense fallback={<PageLoader label="Chargement des offres" />}>
      <Page />
    </Suspense>
  );
}
