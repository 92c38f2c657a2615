import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { bestRoleLabel } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { DownloadButton } from '../../../components/download-button';
import { FactList, SectionCard } from '../../../components/section-card';
import { LogoField } from '../../../components/image-picker/logo-field';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useCurrentUser } from '../../../lib/auth-store';
import { removeOrganizationLogo, uploadOrganizationLogo } from '../../../lib/logos-api';
import { isAdministrator } from '../../../lib/permissions';
import { loadCurrentUser } from '../../../lib/session';
import { OrganizationAvatar } from '../../../components/organization-avatar';

/**
 * What the current organization is: its name and logo, the broker's space it belongs to, and the
 * caller's role. Its administrators change or remove the logo here (decision 042) and download all
 * its data (decision 049).
 */
export function OrganizationSection() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  /** The user (its current organization) and the lists of organizations read again: the switcher shows the new logo. */
  const refresh = async () => {
    await loadCurrentUser();
    void queryClient.invalidateQueries({ queryKey: ['organizations'] });
  };
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
          {isAdministrator(user) && (
            <LogoField
              imageUrl={organization.avatar?.url ?? null}
              of="de l’organisation"
              hint="JPEG, PNG ou WebP ; la transparence est gardée. Il apparaît dans le menu de chaque membre."
              onCropped={async (image) => {
                await uploadOrganizationLogo(organization.uuid, image);
                await refresh();
                snackbar.show({ type: 'success', title: 'Logo enregistré', description: 'Le nouveau logo de l’organisation est en place.' });
              }}
              onRemove={async () => {
                await removeOrganizationLogo(organization.uuid);
                await refresh();
                snackbar.show({ type: 'success', title: 'Logo retiré', description: 'L’initiale de l’organisation le remplace.' });
              }}
            />
          )}
          <FactList
            facts={[
              ['Espace', organization.environment?.title ?? 'Aucun (organisation indépendante)'],
              ['Votre rôle', bestRoleLabel(user.roles)],
            ]}
          />
          {isAdministrator(user) && <DataExport organizationUuid={organization.uuid} />}
        </Box>
      ) : (
        <Typography variant="body2" color="textSecondary">
          Aucune organisation sélectionnée.
        </Typography>
      )}
    </SectionCard>
  );
}

/** GET /api/organization/{uuid}/export: every row and file of the organization, as one ZIP (RGPD). */
function DataExport({ organizationUuid }: { organizationUuid: string }) {
  return (
    <Box sx={{ display: 'grid', gap: 1, justifyItems: 'start' }}>
      <Typography variant="body2" color="textSecondary">
        Toutes les données de l’organisation — registres, documents et leurs fichiers, paramètres — dans une archive ZIP, pour les conserver ou répondre à une demande d’accès (RGPD).
      </Typography>
      <DownloadButton
        path={`/api/organization/${organizationUuid}/export`}
        accept="application/zip"
        fallbackName="Données de l’organisation.zip"
        failure="L’export des données n’a pas pu être téléchargé."
      >
        Exporter les données
      </DownloadButton>
    </Box>
  );
}
