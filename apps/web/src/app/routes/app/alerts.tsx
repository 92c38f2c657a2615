import { Suspense } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { PageLoader } from '../../../components/page-loader';
import { PlanFeature } from '../../../features/billing/components/plan-feature';

// The page's body in its own chunk: its MUI components, shared by no register, stay out of the
// logged pages' shared chunks (the registers' first load is at the budget's edge, decision 016).
const AlertsPage = lazyComponent(() => import('../../../features/alerts/components/alerts-page').then((m) => m.AlertsPage));

/** /alerts: the current organization's prevention alerts (issue 16, decision 037). */
export default function AlertsRoute() {
  return (
    <PlanFeature feature="alerts">
      <Suspense fallback={<PageLoader label="Chargement des alertes" />}>
        <AlertsPage />
      </Suspense>
    </PlanFeature>
  );
}
