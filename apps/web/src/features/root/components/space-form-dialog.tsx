import { zodResolver } from '@hookform/resolvers/zod';
import {
  CreateEnvironmentBodySchema,
  type CreateEnvironmentBody,
  type RootSpace,
  UpdateEnvironmentBodySchema,
  type UpdateEnvironmentBody,
} from '@flotte/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useForm, type Resolver } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { parseFrenchNumber } from '../../../lib/french-number';
import { useCreateSpace, useUpdateSpace } from '../api/root-api';

type CreateValues = { title: string; refererEmail: string; superadmin: { firstName: string; lastName: string; email: string } };
type EditValues = { title: string; refererEmail: string; bookingUrl: string; freeOrganizations: string; stripeProductId: string };

/** The contract checks the typed values once converted (an empty address is none). */
function convertingResolver<TValues extends object, TOutput>(schema: Parameters<typeof zodResolver>[0], toInput: (values: TValues) => unknown): Resolver<TValues, unknown, TOutput> {
  const resolve = zodResolver(schema) as unknown as Resolver<Record<string, unknown>, unknown, TOutput>;
  return ((values: TValues, context: unknown, options: never) => resolve(toInput(values) as Record<string, unknown>, context, options)) as never;
}

const createResolver = convertingResolver<CreateValues, CreateEnvironmentBody>(CreateEnvironmentBodySchema, (values) => ({
  title: values.title,
  refererEmail: values.refererEmail.trim() === '' ? null : values.refererEmail,
  superadmin: values.superadmin,
}));

const editResolver = convertingResolver<EditValues, UpdateEnvironmentBody>(UpdateEnvironmentBodySchema, (values) => ({
  title: values.title,
  refererEmail: values.refererEmail.trim() === '' ? null : values.refererEmail,
  bookingUrl: values.bookingUrl,
  freeOrganizations: parseFrenchNumber(values.freeOrganizations),
  stripeProductId: values.stripeProductId,
}));

const CREATE_FIELDS = ['title', 'refererEmail', 'superadmin.firstName', 'superadmin.lastName', 'superadmin.email'] as const;
const EDIT_FIELDS = ['title', 'refererEmail', 'bookingUrl', 'freeOrganizations', 'stripeProductId'] as const;

/** « Créer un espace »: its name, its referent address, and its first superadmin, invited by e-mail. */
export function CreateSpaceDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const create = useCreateSpace();
  const { control, handleSubmit, setError, reset } = useForm<CreateValues, unknown, CreateEnvironmentBody>({
    resolver: createResolver,
    defaultValues: { title: '', refererEmail: '', superadmin: { firstName: '', lastName: '', email: '' } },
  });
  const close = () => {
    reset();
    onClose();
  };
  const onSubmit = handleSubmit(async (body) => {
    try {
      const space = await create.mutateAsync(body);
      snackbar.show({ type: 'success', title: 'Espace créé', description: `« ${space.title} » : une invitation a été envoyée à ${body.superadmin?.email ?? ''}` });
      close();
    } catch (error) {
      setServerFieldErrors(error, setError, CREATE_FIELDS);
      showActionError(error, "Erreur lors de la création de l'espace");
    }
  });

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="create-space-title">
      <DialogTitle id="create-space-title">Créer un espace</DialogTitle>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <FormTextField control={control} name="title" label="Nom de l'espace" required autoFocus autoComplete="organization" fullWidth />
          <FormTextField control={control} name="refererEmail" label="E-mail du référent" type="email" autoComplete="off" fullWidth />
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600, mt: 1 }}>
            Premier superadmin
          </Typography>
          <DialogContentText sx={{ mt: -1.5 }}>Il reçoit par e-mail un lien pour choisir son mot de passe (valable 7 jours).</DialogContentText>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            <FormTextField control={control} name="superadmin.firstName" label="Prénom" required autoComplete="off" fullWidth />
            <FormTextField control={control} name="superadmin.lastName" label="Nom" required autoComplete="off" fullWidth />
          </Box>
          <FormTextField control={control} name="superadmin.email" label="Adresse e-mail du superadmin" type="email" required autoComplete="off" fullWidth />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={create.isPending}>
            Annuler
          </Button>
          <Button type="submit" variant="contained" loading={create.isPending}>
            Créer l'espace
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** « Modifier l'espace »: every field ROOT sets, the commercial ones included. */
export function EditSpaceDialog({ space, onClose }: { space: RootSpace; onClose: () => void }) {
  const update = useUpdateSpace();
  const { control, handleSubmit, setError } = useForm<EditValues, unknown, UpdateEnvironmentBody>({
    resolver: editResolver,
    defaultValues: {
      title: space.title,
      refererEmail: space.refererEmail ?? '',
      bookingUrl: space.bookingUrl ?? '',
      freeOrganizations: String(space.freeOrganizations),
      stripeProductId: space.stripeProductId ?? '',
    },
  });
  const onSubmit = handleSubmit(async (body) => {
    try {
      await update.mutateAsync({ uuid: space.uuid, body });
      snackbar.show({ type: 'success', title: 'Espace modifié' });
      onClose();
    } catch (error) {
      setServerFieldErrors(error, setError, EDIT_FIELDS);
      showActionError(error, "Erreur lors de la modification de l'espace");
    }
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="edit-space-title">
      <DialogTitle id="edit-space-title">Modifier l'espace</DialogTitle>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <FormTextField control={control} name="title" label="Nom de l'espace" required autoFocus fullWidth />
          <FormTextField control={control} name="refererEmail" label="E-mail du référent" type="email" fullWidth />
          <FormTextField control={control} name="bookingUrl" label="Lien de prise de rendez-vous" placeholder="https://…" fullWidth />
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
            <FormTextField control={control} name="freeOrganizations" label="Organisations gratuites" inputMode="numeric" required fullWidth />
            <FormTextField control={control} name="stripeProductId" label="Produit Stripe" placeholder="prod_…" fullWidth />
          </Box>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={update.isPending}>
            Annuler
          </Button>
          <Button type="submit" variant="contained" loading={update.isPending}>
            Enregistrer
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
