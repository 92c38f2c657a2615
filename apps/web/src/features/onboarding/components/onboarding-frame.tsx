import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import Typography from '@mui/material/Typography';
import type { OnboardingState } from '@flotte/contract';
import { useEffect, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { DocumentTitle } from '../../../components/document-title';
import { getOnboarding, onboardingPath } from '../api/onboarding';

const STEPS = [
  { step: 'welcome', label: 'Accueil' },
  { step: 'company', label: 'Entreprise' },
  { step: 'members', label: 'Collègues' },
  { step: 'finish', label: 'Terminé' },
] as const;
type Page = (typeof STEPS)[number]['step'];

/** The steps a page may be shown at: the company's before the organization exists, the others after. */
const ALLOWED: Record<Page, readonly OnboardingState['step'][]> = {
  welcome: ['welcome', 'company'],
  company: ['welcome', 'company'],
  members: ['members', 'finish'],
  finish: ['members', 'finish'],
};

/**
 * One onboarding page: where it stands in the four steps, its title, and its content once the
 * server said where the user is; a page the user is not at sends them to the right one (a reload,
 * an old bookmark, a user who has nothing to do goes to the dashboard).
 */
export function OnboardingFrame({ page, title, children }: { page: Page; title: string; children: (state: OnboardingState) => ReactNode }) {
  const [state, setState] = useState<OnboardingState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    getOnboarding(controller.signal).then(setState, (error: unknown) => {
      if (!controller.signal.aborted) setFailure(error instanceof Error ? error.message : 'Chargement impossible. Réessayez.');
    });
    return () => controller.abort();
  }, []);

  if (state && !ALLOWED[page].includes(state.step)) return <Navigate to={onboardingPath(state.step)} replace />;
  const index = STEPS.findIndex((s) => s.step === page);
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      <DocumentTitle title={title} />
      <Stepper
        activeStep={index}
        alternativeLabel
        aria-label={`Étape ${index + 1} sur ${STEPS.length}`}
        sx={{ '& .MuiStepLabel-label': { fontSize: { xs: '0.75rem', sm: '0.875rem' } } }}
      >
        {STEPS.map((s) => (
          <Step key={s.step}>
            <StepLabel>{s.label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Typography component="h1" variant="h5">
        {title}
      </Typography>
      {failure ? (
        <Typography color="error">{failure}</Typography>
      ) : state ? (
        children(state)
      ) : (
        <Box role="status" aria-label="Chargement…" sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
          <CircularProgress aria-hidden />
        </Box>
      )}
    </Box>
  );
}
