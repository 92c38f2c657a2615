import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { Environment } from '@flotte/contract';
import { Link as RouterLink } from 'react-router';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useUpdateEnvironment } from '../api/environment-settings';

/**
 * « Double authentification obligatoire pour les superadmins » (decision 035). Turning it on is
 * offered only to a superadmin who already signs in with a code (decision 040): otherwise its own
 * next sign-in would demand a setup. ROOT is not concerned.
 */
export function TotpRequirementSection(props: {
  environment: Environment;
  isRoot: boolean;
  /** Whether the signed-in user signs in with a code; undefined while it loads. */
  ownTotpEnabled: boolean | undefined;
}) {
  const { environment, isRoot, ownTotpEnabled } = props;
  const update = useUpdateEnvironment(environment.uuid);
  const required = environment.requireSuperadminTotp;
  const ownReady = isRoot || ownTotpEnabled === true;

  const toggle = async (on: boolean) => {
    try {
      await update.mutateAsync({ requireSuperadminTotp: on });
      snackbar.show({
        type: 'success',
        title: on ? 'Double authentification obligatoire' : 'Double authentification facultative',
        description: on ? 'Chaque superadmin de l’environnement saisira un code à la connexion.' : 'Chaque superadmin choisit désormais pour son compte.',
      });
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Réglage non enregistré', description: error instanceof ApiError ? error.message : 'Réessayez dans un instant.' });
    }
  };

  return (
    <SectionCard
      id="double-authentification"
      title="Sécurité des superadmins"
      description="Un code d’une application d’authentification, demandé après le mot de passe à chaque superadmin de l’environnement."
    >
      {!isRoot && ownTotpEnabled === undefined ? (
        <Skeleton variant="rounded" height={40} aria-label="Chargement du réglage" />
      ) : (
        <>
          <FormControlLabel
            control={
              <Switch checked={required} disabled={update.isPending || (!required && !ownReady)} onChange={(event) => void toggle(event.target.checked)} />
            }
            label="Double authentification obligatoire pour les superadmins"
          />
          {!required && !ownReady && (
            <Alert severity="info">
              Activez-la d’abord sur votre propre compte : sans elle, vous ne pourriez plus vous connecter une fois la règle en place.
              <Box sx={{ mt: 1 }}>
                <Button component={RouterLink} to="/account#double-authentification" variant="outlined" color="inherit" size="small">
                  Activer sur mon compte
                </Button>
              </Box>
            </Alert>
          )}
          <Typography variant="body2" color="textSecondary">
            {required
              ? 'Les superadmins qui ne l’utilisent pas encore la configurent à leur prochaine connexion ; ils ne peuvent plus la désactiver sur leur compte.'
              : 'Une fois la règle en place, les superadmins qui ne l’utilisent pas encore la configureront à leur prochaine connexion.'}
          </Typography>
        </>
      )}
    </SectionCard>
  );
}
