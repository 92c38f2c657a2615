import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { User } from '@flotte/contract';
import { useState } from 'react';
import { useNavigate, useOutletContext } from 'react-router';
import { saveOnboardingStep } from '../../../features/onboarding/api/onboarding';
import { OnboardingFrame } from '../../../features/onboarding/components/onboarding-frame';
import { ApiError } from '../../../lib/api-error';

const POINTS = [
  ['Votre entreprise', 'son nom, son SIREN ou SIRET, son adresse et la taille de votre flotte.'],
  ['Vos collègues', 'invitez-les à vous rejoindre, si vous le souhaitez.'],
  ['C’est prêt', 'ajoutez vos véhicules un par un ou importez-les d’un fichier.'],
] as const;

/** /onboarding: a short welcome, then the company step. */
export default function OnboardingWelcomeRoute() {
  const user = useOutletContext<User>();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function start() {
    setPending(true);
    setFailure(null);
    try {
      await saveOnboardingStep('company');
      void navigate('/onboarding/company');
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'Impossible de continuer. Réessayez.');
      setPending(false);
    }
  }

  return (
    <OnboardingFrame page="welcome" title={`Bienvenue sur FlotteAssur, ${user.firstName} !`}>
      {() => (
        <Box sx={{ display: 'grid', gap: 2.5 }}>
          <Typography>Votre adresse est confirmée. Trois étapes, quelques minutes, et votre espace est prêt :</Typography>
          <Box component="ol" sx={{ m: 0, pl: 3, display: 'grid', gap: 1 }}>
            {POINTS.map(([title, text]) => (
              <li key={title}>
                <strong>{title}</strong> : {text}
              </li>
            ))}
          </Box>
          <Typography color="textSecondary" variant="body2">
            Vous pouvez vous arrêter à tout moment : vous reprendrez à la même étape à votre prochaine connexion.
          </Typography>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Button variant="contained" loading={pending} onClick={() => void start()} sx={{ justifySelf: { xs: 'stretch', sm: 'end' } }}>
            Commencer
          </Button>
        </Box>
      )}
    </OnboardingFrame>
  );
}
