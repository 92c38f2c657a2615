import { Suspense } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { PageLoader } from '../../../components/page-loader';

const Page = lazyComponent(() => import('../../../features/billing/components/payment-history-page').then((m) => m.PaymentHistoryPage));

/** /parameters/payment-history: the organization's invoices. */
export default function Route() {
  return (
    <Suspense fallback={<PageLoader label="Chargement de l’historique" />}>
      <Page />
    </Suspense>
  );
}
