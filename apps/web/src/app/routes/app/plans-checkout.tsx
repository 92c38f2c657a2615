import { Suspense } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { PageLoader } from '../../../components/page-loader';

const Page = lazyComponent(() => import('../../../features/billing/components/checkout-page').then((m) => m.CheckoutPage));

/** /parameters/plans/checkout: start a checkout, or pay on the embedded provider's page. */
export default function Route() {
  return (
    <Suspense fallback={<PageLoader label="Chargement du paiement" />}>
      <Page />
    </Suspense>
  );
}
