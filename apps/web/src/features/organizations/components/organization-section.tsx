import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { bestRoleLabel } from '@flotte/contract';
import { FactList, SectionCard } from '../../../components/section-card';
import { useCurrentUser } from '../../../lib/auth-store';
import { OrganizationAvatar } from './organization-avatar';

/**
 * What the current organization is: its name and logo, the broker's space it belongs to, and the
 * caller's role. Read only: the API has no route to edit an organization yet.
 */
export function OrganizationSection() {
  const user = useCurrentUser();
  const organization = user?.currentOrganizationUser?.organization ?? null;
  return (
    <SectionCard id="organisation" title="Organisation" description="L'organisation dans laquelle vous travaillez">
      {organization && user ? (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', minWidth: 0 }}>
            <OrganizationAvatar organization={organization} size={48} />
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {organization.title}
            </Typography>
          </Box>
          <FactList
            facts={[
              ['Espace', organization.environment?.title ?? 'Aucun (organisation indépendante)'],
              ['Votre rôle', bestRoleLabel(user.roles)],
            ]}
          />
        </Box>
      ) : (
        <Typography variant="body2" color="textSecondary">
          Aucune organisation sélectionnée.
        </Typography>
      )}
    </SectionCard>
  );
}
