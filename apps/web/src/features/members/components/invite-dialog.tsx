import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateInvitationBodySchema, INVITATION_LINK_DAYS, MEMBER_ROLE_CHOICES, type CreateInvitationBody } from '@flotte/contract';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { menuItems } from '../../../components/form/menu-items';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { useInvite } from '../api/members';

type InviteInput = z.input<typeof CreateInvitationBodySchema>;

/** « Inviter un membre »: an address and a role; the link leaves by e-mail, valid 7 days. */
export function InviteDialog({ onClose }: { onClose: () => void }) {
  const invite = useInvite();
  const titleId = useId();
  const { control, handleSubmit, setError } = useForm<InviteInput, unknown, CreateInvitationBody>({
    resolver: zodResolver(CreateInvitationBodySchema),
    defaultValues: { email: '', role: 'USER' },
  });

  const onSubmit = handleSubmit(async (body) => {
    try {
      await invite.mutateAsync(body);
      snackbar.show({ type: 'success', title: 'Invitation envoyée', description: `${body.email} a reçu un lien pour rejoindre l’organisation, valable ${INVITATION_LINK_DAYS} jours.` });
      onClose();
    } catch (error) {
      if (!setServerFieldErrors(error, setError, ['email', 'role'])) {
        snackbar.show({ type: 'error', title: 'Invitation non envoyée', description: error instanceof ApiError && error.status !== 0 ? error.message : 'L’invitation n’a pas pu être envoyée. Réessayez.' });
      }
    }
  });

  return (
    <Dialog open onClose={invite.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form noValidate onSubmit={(event) => void onSubmit(event)} aria-labelledby={titleId}>
        <DialogTitle id={titleId}>Inviter un membre</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2.5 }}>
          <DialogContentText>
            La personne reçoit un e-mail avec un lien, valable {INVITATION_LINK_DAYS} jours, pour créer son compte ou rejoindre l’organisation avec le sien.
          </DialogContentText>
          <FormTextField control={control} name="email" label="Adresse e-mail" type="email" required autoComplete="off" autoFocus fullWidth />
          <FormTextField
            control={control}
            name="role"
            label="Rôle"
            select
            required
            fullWidth
            helperText="Un administrateur gère aussi les membres et les paramètres de l’organisation"
          >
            {menuItems(MEMBER_ROLE_CHOICES)}
          </FormTextField>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          <Button onClick={onClose} disabled={invite.isPending}>
            Annuler
          </Button>
          <Button type="submit" variant="contained" loading={invite.isPending}>
            Envoyer l’invitation
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
