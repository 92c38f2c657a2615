import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { zodResolver } from '@hookform/resolvers/zod';
import { DocumentNameSchema } from '@flotte/contract';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { ApiError } from '../../../lib/api-error';
import { showActionError } from '../../../components/register/register-actions';

const NameFormSchema = z.object({ name: DocumentNameSchema });
type NameForm = z.input<typeof NameFormSchema>;
type NameValues = z.output<typeof NameFormSchema>;

export type DocumentNameDialogProps = {
  open: boolean;
  /** « Nouveau dossier », « Renommer « devis.pdf » ». */
  title: string;
  /** « Nom du dossier », « Nouveau nom ». */
  label: string;
  initialName?: string;
  submitLabel: string;
  /** Saves the name (already checked by the contract's DocumentNameSchema); a refusal of the API shows under the field. */
  onSubmit: (name: string) => Promise<unknown>;
  onClose: () => void;
};

/**
 * One name to type: a new folder, or a rename. The contract's rules (no « / », no leading dot,
 * 255 characters…) say what is wrong as one types it; the API's answer (a name already taken in
 * the folder) shows under the field too.
 */
export function DocumentNameDialog({ open, title, label, initialName = '', submitLabel, onSubmit, onClose }: DocumentNameDialogProps) {
  const titleId = useId();
  const { control, handleSubmit, setError, formState } = useForm<NameForm, unknown, NameValues>({
    resolver: zodResolver(NameFormSchema),
    defaultValues: { name: initialName },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async ({ name }) => {
    try {
      await onSubmit(name);
      onClose();
    } catch (error) {
      // A refused name (taken, reserved) belongs under the field; anything else to the snackbar.
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
        setError('name', { type: 'server', message: error.details[0]?.message ?? error.message }, { shouldFocus: true });
      } else {
        showActionError(error);
      }
    }
  });

  return (
    <Dialog open={open} onClose={formState.isSubmitting ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <DialogTitle id={titleId} sx={{ overflowWrap: 'anywhere' }}>
          {title}
        </DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          <FormTextField control={control} name="name" label={label} autoFocus fullWidth required slotProps={{ htmlInput: { maxLength: 300, autoComplete: 'off' } }} />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={formState.isSubmitting}>
            Annuler
          </Button>
          <Button type="submit" variant="contained" loading={formState.isSubmitting}>
            {submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
