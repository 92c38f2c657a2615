import { Suspense } from 'react';
import { lazyComponent } from '../../../components/lazy-component';
import { PageLoader } from '../../../components/page-loader';

// As /alerts: the body in its own chunk, out of the logged pages' shared chunks.
const SuperadminAlertsPage = lazyComponent(() => import('../../../features/alerts/components/superadmin-alerts-page').then((m) => m.SuperadminAlertsPage));
// The « Questionnaires » tab: the surveys feature's console, fetched when the tab is opened.
const SurveysAdmin = lazyComponent(() => import('../../../features/surveys/components/surveys-admin').then((m) => m.default));

/** /superadmin/alerts: the broker's prevention console, alerts and surveys (issue 16, decision 037). */
export default function SuperadminAlertsRoute() {
  return (
    <Suspense fallback={<PageLoader label="Chargement de la gestion des alertes" />}>
      <SuperadminAlertsPage surveys={<SurveysAdmin />} />
    </Suspense>
  );
}
