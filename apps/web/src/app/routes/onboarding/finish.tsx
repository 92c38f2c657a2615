import CheckCircleOutline from '@mui/icons-material/CheckCircleOutlined';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { FLEET_SIZE_LABELS, formatCompanyId, type OnboardingState } from '@flotte/contract';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useInvitations } from '../../../features/members/api/members';
import { saveOnboardingStep } from '../../../features/onboarding/api/onboarding';
import { OnboardingFrame } from '../../../features/onboarding/components/onboarding-frame';
import { ApiError } from '../../../lib/api-error';
import { loadCurrentUser } from '../../../lib/session';

const ROLE_LABELS = { ADMIN: 'Administrateur', USER: 'Utilisateur' } as const;

/** The organization made on the way, and the invitations pending in it (read again after a reload). */
function Summary({ organization }: { organization: NonNullable<OnboardingState['organization']> }) {
  const invitations = useInvitations(organization.uuid, true);
  const invited = invitations.data?.data ?? [];
  const rows: [string, string][] = [
    ['Organisation', organization.title],
    [organization.siret ? 'SIRET' : 'SIREN', formatCompanyId(organization.siret ?? organization.siren ?? '') || '—'],
    ['Adresse', organization.address ?? '—'],
    ['Flotte', organization.fleetSize ? FLEET_SIZE_LABELS[organization.fleetSize] : '—'],
  ];
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '140px 1fr' }, columnGap: 2, rowGap: { xs: 0.25, sm: 1 } }}>
      {rows.map(([term, value]) => (
        <Box key={term} sx={{ display: 'contents' }}>
          <Typography component="dt" color="textSecondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-line' }}>
            {value}
          </Typography>
        </Box>
      ))}
      <Typography component="dt" color="textSecondary" sx={{ mt: { xs: 1, sm: 0 } }}>
        Logo
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {organization.logo ? (
          <Box
            component="img"
            src={organization.logo.url}
            alt={`Logo de ${organization.title}`}
            sx={{ display: 'block', maxWidth: 160, maxHeight: 80, objectFit: 'contain' }}
          />
        ) : (
          'Aucun : vous pourrez l’ajouter dans les paramètres.'
        )}
      </Typography>
      <Typography component="dt" color="textSecondary" sx={{ mt: { xs: 1, sm: 0 } }}>
        Invitations
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {invitations.isPending
          ? '…'
          : invitations.isError
            ? 'Elles n’ont pas pu être chargées : vous les retrouverez dans les paramètres.'
            : invited.length === 0
              ? 'Aucune pour l’instant : vous pourrez inviter vos collègues depuis les paramètres.'
              : invited.map((i) => `${i.email} (${ROLE_LABELS[i.role]})`).join(', ')}
      </Typography>
    </Box>
  );
}

/** /onboarding/finish: the summary, then the dashboard, or the import of the fleet's data. */
export default function OnboardingFinishRoute() {
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function finish(to: string) {
    setPending(to);
    setFailure(null);
    try {
      await saveOnboardingStep('done');
      await loadCurrentUser();
      void navigate(to, { replace: true });
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'Impossible de continuer. Réessayez.');
      setPending(null);
    }
  }

  return (
    <OnboardingFrame page="finish" title="Votre espace est prêt">
      {(state) => (
        <Box sx={{ display: 'grid', gap: 2.5 }}>
          <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
            <CheckCircleOutline color="success" sx={{ mt: 0.25 }} />
            <Typography>Votre organisation est créée et vous en êtes l’administrateur.</Typography>
          </Box>
          {state.organization && <Summary organization={state.organization} />}
          <Alert severity="info" icon={<UploadFileOutlined />}>
            Vos véhicules, conducteurs ou sinistres sont déjà dans un tableur ? Importez-les d’un fichier Excel ou CSV plutôt que de les saisir un par un.
          </Alert>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Box sx={{ display: 'flex', flexWrap: 'wrap-reverse', gap: 1.5, justifyContent: 'flex-end' }}>
            <Button variant="outlined" loading={pending === '/parameters#imports'} disabled={pending !== null} onClick={() => void finish('/parameters#imports')}>
              Importer mes données
            </Button>
            <Button variant="contained" loading={pending === '/dashboard'} disabled={pending !== null} onClick={() => void finish('/dashboard')}>
              Accéder au tableau de bord
            </Button>
          </Box>
        </Box>
      )}
    </OnboardingFrame>
  );
}
