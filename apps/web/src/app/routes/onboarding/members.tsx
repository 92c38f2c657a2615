import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { ONBOARDING_INVITATIONS_MAX, OnboardingInvitationsFormSchema, type CreateInvitationBody, type OnboardingInvitationsForm } from '@flotte/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { FormTextField } from '../../../components/form/form-text-field';
import { menuItems } from '../../../components/form/menu-items';
import { memberKeys, useInvitations } from '../../../features/members/api/members';
import { inviteColleague } from '../../../features/onboarding/api/invitations';
import { saveOnboardingStep } from '../../../features/onboarding/api/onboarding';
import { OnboardingFrame } from '../../../features/onboarding/components/onboarding-frame';
import { ApiError } from '../../../lib/api-error';

const ROLE_CHOICES = [
  { value: 'USER', label: 'Utilisateur' },
  { value: 'ADMIN', label: 'Administrateur' },
];
const EMPTY_ROW: CreateInvitationBody = { email: '', role: 'USER' };
const FAILED = 'L’invitation n’a pas pu être envoyée. Vérifiez votre connexion puis réessayez.';

/**
 * « Invitez vos collègues »: rows of an e-mail and a role, each sent as its own invitation. The
 * rows sent are removed from the form; a refused one stays with its reason. Done when all went.
 * The people already invited are the organization's pending invitations: a reload keeps them.
 */
export function InviteColleaguesForm({ organizationUuid, onDone, onSkip }: { organizationUuid: string; onDone: () => void; onSkip: () => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const invited = useInvitations(organizationUuid, true).data?.data ?? [];
  const { control, handleSubmit, setError, reset, formState } = useForm<OnboardingInvitationsForm>({
    resolver: zodResolver(OnboardingInvitationsFormSchema),
    defaultValues: { invitations: [EMPTY_ROW] },
  });
  const rows = useFieldArray({ control, name: 'invitations' });
  // The rows refused, alone left in the form once the sending is over, each with its reason.
  const [refusals, setRefusals] = useState<{ invitation: CreateInvitationBody; field: 'email' | 'role'; message: string }[] | null>(null);
  useEffect(() => {
    if (!refusals) return;
    reset({ invitations: refusals.map((row) => row.invitation) });
    refusals.forEach((row, index) => setError(`invitations.${index}.${row.field}`, { type: 'server', message: row.message }));
  }, [refusals, reset, setError]);

  const onSubmit = handleSubmit(async ({ invitations }) => {
    setFailure(null);
    const sent: CreateInvitationBody[] = [];
    const left: { invitation: CreateInvitationBody; field: 'email' | 'role'; message: string }[] = [];
    for (const invitation of invitations) {
      try {
        await inviteColleague(invitation);
        sent.push(invitation);
      } catch (error) {
        const detail = error instanceof ApiError ? error.details.find((d) => d.path === 'email' || d.path === 'role') : undefined;
        const message = error instanceof ApiError && error.status !== 0 ? (detail?.message ?? error.message) : FAILED;
        left.push({ invitation, field: detail?.path === 'role' ? 'role' : 'email', message });
      }
    }
    if (sent.length > 0) await queryClient.invalidateQueries({ queryKey: memberKeys.invitations(organizationUuid) });
    if (left.length === 0) return onDone();
    setRefusals(left);
    setFailure(`${sent.length > 0 ? `${sent.length} invitation${sent.length > 1 ? 's envoyées' : ' envoyée'}. ` : ''}Corrigez les lignes restantes ou passez cette étape.`);
  });

  const rootError = formState.errors.invitations?.root?.message ?? formState.errors.invitations?.message;
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2.5 }}>
      <Typography color="textSecondary">
        Invitez les personnes qui gèrent la flotte avec vous : chacune reçoit un lien, valable 7 jours, pour rejoindre votre organisation. Un administrateur gère
        aussi les membres et les paramètres.
      </Typography>
      {invited.length > 0 && <Alert severity="success">Déjà invités : {invited.map((i) => i.email).join(', ')}</Alert>}
      {failure && <Alert severity="warning">{failure}</Alert>}
      {rootError && <Alert severity="error">{rootError}</Alert>}
      {rows.fields.map((row, index) => (
        <Box key={row.id} sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr auto', sm: '1fr 180px auto' }, alignItems: 'start' }}>
          <FormTextField control={control} name={`invitations.${index}.email`} label="Adresse e-mail" type="email" autoComplete="off" required fullWidth />
          <Box sx={{ gridRow: { xs: 2, sm: 'auto' }, gridColumn: { xs: '1', sm: 'auto' } }}>
            <FormTextField control={control} name={`invitations.${index}.role`} label="Rôle" select required fullWidth>
              {menuItems(ROLE_CHOICES)}
            </FormTextField>
          </Box>
          <IconButton aria-label={`Retirer la ligne ${index + 1}`} onClick={() => rows.remove(index)} disabled={rows.fields.length === 1} sx={{ mt: 1 }}>
            <DeleteOutline />
          </IconButton>
        </Box>
      ))}
      <Button
        startIcon={<Add />}
        onClick={() => rows.append(EMPTY_ROW)}
        disabled={rows.fields.length >= ONBOARDING_INVITATIONS_MAX}
        sx={{ justifySelf: 'start' }}
      >
        Ajouter une personne
      </Button>
      <Box sx={{ display: 'flex', flexWrap: 'wrap-reverse', gap: 1.5, justifyContent: 'space-between' }}>
        <Button onClick={onSkip}>Passer cette étape</Button>
        <Button type="submit" variant="contained" loading={formState.isSubmitting}>
          Envoyer les invitations
        </Button>
      </Box>
    </Box>
  );
}

/** /onboarding/members: invite colleagues with a role, or skip. */
export default function OnboardingMembersRoute() {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);

  async function next() {
    setFailure(null);
    try {
      await saveOnboardingStep('finish');
      void navigate('/onboarding/finish');
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'Impossible de continuer. Réessayez.');
    }
  }

  return (
    <OnboardingFrame page="members" title="Invitez vos collègues">
      {(state) => (
        <>
          {failure && <Alert severity="error">{failure}</Alert>}
          {state.organization && <InviteColleaguesForm organizationUuid={state.organization.uuid} onDone={() => void next()} onSkip={() => void next()} />}
        </>
      )}
    </OnboardingFrame>
  );
}
