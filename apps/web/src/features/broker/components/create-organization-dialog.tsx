import { zodResolver } from '@hookform/resolvers/zod';
import { type CreateBrokerOrganizationBody, CreateBrokerOrganizationBodySchema } from '@flotte/contract';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { usePendingImage } from '../../../components/image-picker/chosen-image';
import { LogoField } from '../../../components/image-picker/logo-field';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { queryKeys } from '../../../lib/query-keys';
import { uploadOrganizationLogo } from '../../../lib/logos-api';
import { useCreateBrokerOrganization } from '../api/broker-api';

type Output = z.output<typeof CreateBrokerOrganizationBodySchema>;

export type CreateOrganizationDialogProps = {
  open: boolean;
  onClose: () => void;
  /** The environment it joins (the superadmin's current one); absent: the API takes its only one. */
  environment: string | undefined;
};

/**
 * « Créer une organisation »: its name, its logo (cropped here, sent once it exists) and the
 * address of its first administrator, invited by e-mail with the organization (decision 042).
 */
export function CreateOrganizationDialog({ open, onClose, environment }: CreateOrganizationDialogProps) {
  const create = useCreateBrokerOrganization();
  const queryClient = useQueryClient();
  const [logo, setLogo] = usePendingImage();
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = useForm<CreateBrokerOrganizationBody, unknown, Output>({
    resolver: zodResolver(CreateBrokerOrganizationBodySchema),
    defaultValues: { title: '', adminEmail: '', environment },
  });
  const close = () => {
    reset();
    setLogo(null);
    onClose();
  };
  const onSubmit = handleSubmit(async (body) => {
    try {
      // No address: no adminEmail in the body (the API invites nobody).
      const { adminEmail, ...organizationOnly } = body;
      const organization = await create.mutateAsync(adminEmail ? body : organizationOnly);
      const invited = adminEmail ? ` ; une invitation est partie à ${adminEmail}` : '';
      snackbar.show({ type: 'success', title: 'Organisation créée', description: `« ${organization.title} » a rejoint votre environnement${invited}` });
      if (logo) {
        try {
          await uploadOrganizationLogo(organization.uuid, logo.file);
          void queryClient.invalidateQueries({ queryKey: queryKeys.broker.all });
          void queryClient.invalidateQueries({ queryKey: ['organizations'] });
        } catch (error) {
          showActionError(error, 'L’organisation est créée, mais son logo n’a pas pu être enregistré');
        }
      }
      close();
    } catch (error) {
      setServerFieldErrors(error, setError, ['title', 'adminEmail']);
      showActionError(error, "Erreur lors de la création de l'organisation");
    }
  });

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="create-organization-title">
      <DialogTitle id="create-organization-title">Créer une organisation</DialogTitle>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
          <DialogContentText>La nouvelle organisation rejoint votre environnement ; vous pourrez l’ouvrir pour la compléter.</DialogContentText>
          <FormTextField control={control} name="title" label="Nom de l'organisation" required autoFocus autoComplete="organization" fullWidth />
          <LogoField imageUrl={logo?.url ?? null} onCropped={setLogo} onRemove={() => setLogo(null)} of="de l’organisation" disabled={isSubmitting} />
          <FormTextField
            control={control}
            name="adminEmail"
            label="E-mail de l’administrateur"
            type="email"
            autoComplete="off"
            fullWidth
            helperText="Facultatif. Une invitation valable 7 jours part à cette adresse ; la personne devient administrateur de l’organisation."
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={isSubmitting}>
            Annuler
          </Button>
          <Button type="submit" variant="contained" loading={isSubmitting}>
            Créer l'organisation
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
