import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { Suspense, useRef, type ComponentType } from 'react';
import { DocumentTitle } from '../../../components/document-title';
import { lazyComponent } from '../../../components/lazy-component';
import { useScrollToSection } from '../../../lib/use-scroll-to-section';

const section = (load: () => Promise<ComponentType>) => lazyComponent<object>(load);

/**
 * The page's sections, in order, each its own feature's component (a SectionCard with its own
 * title and anchor), each fetched with the page but in its own chunk. A new section is one line.
 */
const SECTIONS: readonly ComponentType[] = [
  section(() => import('../../../features/organizations/components/organization-section').then((m) => m.OrganizationSection)),
  section(() => import('../../../features/members/components/members-section').then((m) => m.MembersSection)),
  section(() => import('../../../features/insurance/components/contract-section').then((m) => m.ContractSection)),
  section(() => import('../../../features/insurance/components/intermediary-section').then((m) => m.IntermediarySection)),
  section(() => import('../../../features/indicators/components/indicators-section').then((m) => m.IndicatorsSection)),
  section(() => import('../../../features/indicators/components/limits-section').then((m) => m.LimitsSection)),
  section(() => import('../../../features/imports/components/imports-section').then((m) => m.ImportsSection)),
  section(() => import('../../../features/billing/components/subscription-section').then((m) => m.SubscriptionSection)),
  section(() => import('../../../features/audit-log/components/audit-log-section').then((m) => m.AuditLogSection)),
];

function SectionSkeleton() {
  return <Skeleton variant="rounded" height={160} aria-hidden />;
}

export default function ParametersRoute() {
  const page = useRef<HTMLDivElement>(null);
  useScrollToSection(page);
  return (
    <Box ref={page} sx={{ display: 'grid', gap: 3, maxWidth: 960 }}>
      <DocumentTitle title="Paramètres" />
      <Typography component="h1" variant="h4">
        Paramètres
      </Typography>
      {SECTIONS.map((Section, index) => (
        <Suspense key={index} fallback={<SectionSkeleton />}>
          <Section />
        </Suspense>
      ))}
    </Box>
  );
}
