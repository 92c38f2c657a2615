import { zodResolver } from '@hookform/resolvers/zod';
import { type Guarantee, type GuaranteeBody, GuaranteeBodySchema } from '@flotte/contract';
import AddOutlined from '@mui/icons-material/AddOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useGuarantees, useSaveGuarantee } from '../api/root-api';

function GuaranteeDialog({ guarantee, onClose }: { guarantee: Guarantee | null; onClose: () => void }) {
  const save = useSaveGuarantee();
  const { control, handleSubmit, setError } = useForm<GuaranteeBody>({ resolver: zodResolver(GuaranteeBodySchema), defaultValues: { label: guarantee?.label ?? '' } });
  const onSubmit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ uuid: guarantee?.uuid, body });
      snackbar.show({ type: 'success', title: guarantee ? 'Garantie renommée' : 'Garantie ajoutée', description: `« ${body.label.trim()} »` });
      onClose();
    } catch (error) {
      setServerFieldErrors(error, setError, ['label']);
      showActionError(error, 'Erreur lors de l’enregistrement de la garantie');
    }
  });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="guarantee-title">
      <DialogTitle id="guarantee-title">{guarantee ? 'Renommer la garantie' : 'Ajouter une garantie'}</DialogTitle>
      <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)}>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: 1 }}>
          {guarantee ? <DialogContentText>Le nouveau libellé apparaît aussitôt dans les sinistres de toutes les organisations.</DialogContentText> : null}
          <FormTextField control={control} name="label" label="Libellé de la garantie" required autoFocus fullWidth />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose} disabled={save.isPending}>
            Annuler
          </Button>
          <Button type="submit" variant="contained" loading={save.isPending}>
            Enregistrer
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

/** « Garanties »: the reference list every claim chooses from (SPEC's seed list), renamed or completed by ROOT. */
export function GuaranteesSection() {
  const guarantees = useGuarantees();
  const [editing, setEditing] = useState<Guarantee | 'new' | null>(null);
  return (
    <Paper component="section" aria-labelledby="guarantees-heading" variant="outlined" sx={{ p: { xs: 2, md: 3 }, display: 'grid', gap: 1 }}>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Typography id="guarantees-heading" component="h2" variant="h6">
          Garanties
        </Typography>
        <Button startIcon={<AddOutlined />} onClick={() => setEditing('new')}>
          Ajouter une garantie
        </Button>
      </Box>
      {guarantees.error ? <Alert severity="error">{guarantees.error.message}</Alert> : null}
      <List dense aria-label="Garanties" sx={{ display: 'grid', gridTemplateColumns: { md: '1fr 1fr' }, columnGap: 4 }}>
        {(guarantees.data ?? []).map((guarantee) => (
          <ListItem
            key={guarantee.uuid}
            secondaryAction={
              <IconButton edge="end" aria-label={`Renommer ${guarantee.label}`} onClick={() => setEditing(guarantee)}>
                <EditOutlined fontSize="small" />
              </IconButton>
            }
          >
            <ListItemText primary={guarantee.label} />
          </ListItem>
        ))}
      </List>
      {editing ? <GuaranteeDialog guarantee={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
    </Paper>
  );
}
