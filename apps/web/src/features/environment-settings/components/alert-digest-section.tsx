import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useAlertDigest, useSetAlertDigest } from '../api/environment-settings';

/** « Récapitulatif quotidien des alertes »: the calling superadmin's opt-out (decision 037). */
export function AlertDigestSection({ environmentUuid }: { environmentUuid: string }) {
  const digest = useAlertDigest(environmentUuid);
  const save = useSetAlertDigest(environmentUuid);

  const toggle = async (enabled: boolean) => {
    try {
      await save.mutateAsync(enabled);
      snackbar.show({
        type: 'success',
        title: enabled ? 'Récapitulatif activé' : 'Récapitulatif désactivé',
        description: enabled ? 'Vous le recevrez chaque matin s’il y a de nouvelles alertes.' : 'Vous ne le recevrez plus.',
      });
    } catch (error) {
      snackbar.show({ type: 'error', title: 'Réglage non enregistré', description: error instanceof ApiError ? error.message : 'Réessayez dans un instant.' });
    }
  };

  return (
    <SectionCard
      id="recapitulatif"
      title="Récapitulatif quotidien des alertes"
      description="Chaque matin, un e-mail des nouvelles alertes automatiques de vos organisations clientes (S/P, fréquence, sinistres…)."
    >
      {digest.isPending ? (
        <Skeleton variant="rounded" height={40} aria-label="Chargement du réglage" />
      ) : digest.isError ? (
        <Alert severity="warning">Impossible de charger ce réglage.</Alert>
      ) : (
        <FormControlLabel
          control={<Switch checked={digest.data.enabled} disabled={save.isPending} onChange={(event) => void toggle(event.target.checked)} />}
          label="Recevoir le récapitulatif par e-mail"
        />
      )}
    </SectionCard>
  );
}
