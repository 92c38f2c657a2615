import { Suspense } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { PageLoader } from '../../../components/page-loader';

const Page = lazyComponent(() => import('../../../features/billing/components/confirmation-page').then((m) => m.ConfirmationPage));

/** /parameters/plans/confirmation: the result of a payment. */
export default function Route() {
  return (
    <Suspense fallback={<PageLoader label="Lecture du paiement" />}>
      <Page />
    </Suspense>
  );
}
