import { zodResolver } from '@hookform/resolvers/zod';
import { type CreateTierBody, CreateTierBodySchema, type RootSpace, type Tier } from '@flotte/contract';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { FormDateField } from '../../../components/form/form-date-field';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { LazyConfirmDialog } from '../../../components/register/lazy-confirm-dialog';
import { showActionError } from '../../../components/register/register-actions';
import { snackbar } from '../../../components/snackbar/snackbar';
import { formatDate, formatEuros, todayIso } from '../../../lib/format';
import { parseFrenchNumber } from '../../../lib/french-number';
import { useDeleteTier, useSaveTier, useTiers } from '../api/root-api';

/** « 12,00 € HT / véhicule / mois ». */
export function formatTierPrice(priceCents: number): string {
  return `${formatEuros(priceCents / 100)} HT / véhicule / mois`;
}

/** « 5 incluses · 1 gratuite ». */
export function formatTierOrganizations(tier: Pick<Tier, 'includedOrganizations' | 'freeOrganizations'>): string {
  const included = `${tier.includedOrganizations} organisation${tier.includedOrganizations > 1 ? 's' : ''} incluse${tier.includedOrganizations > 1 ? 's' : ''}`;
  const free = `${tier.freeOrganizations} gratuite${tier.freeOrganizations > 1 ? 's' : ''}`;
  return `${included} · ${free}`;
}

type Values = { title: string; startDate: string | null; price: string; includedOrganizations: string; freeOrganizations: string };
const FIELDS = ['title', 'startDate', 'includedOrganizations', 'freeOrganizations'] as const;

/** The price typed in euros (« 12,50 ») becomes cents; anything unreadable is NaN, refused in French by the contract. */
function toInput(values: Values) {
  const euros = parseFrenchNumber(values.price);
  return {
    title: values.title,
    startDate: values.startDate ?? undefined,
    priceCents: Number.isNaN(euros) ? Number.NaN : Math.round(euros * 100),
    includedOrganizations: parseFrenchNumber(values.includedOrganizations),
    freeOrganizations: parseFrenchNumber(values.freeOrganizations),
  };
}
const contractResolver = zodResolver(CreateTierBodySchema) as unknown as Resolver<ReturnType<typeof toInput>, unknown, CreateTierBody>;
/** The contract names the field priceCents: its messages show under the price typed in euros. */
const resolver: Resolver<Values, unknown, CreateTierBody> = async (values, context, options) => {
  const result = await contractResolver(toInput(values), context, options as never);
  const { priceCents, ...errors } = result.errors as Record<string, unknown>;
  return (priceCents ? { ...result, errors: { ...errors, price: priceCents } } : result) as never;
};

function TierForm({ environment, tier, onDone }: { environment: string; tier: Tier | null; onDone: () => void }) {
  const save = useSaveTier(environment);
  const { control, handleSubmit, setError } = useForm<Values, unknown, CreateTierBody>({
    resolver,
    defaultValues: tier
      ? {
          title: tier.title,
          startDate: tier.startDate,
          price: (tier.priceCents / 100).toFixed(2).replace('.', ','),
          includedOrganizations: String(tier.includedOrganizations),
          freeOrganizations: String(tier.freeOrganizations),
        }
      : { title: '', startDate: todayIso(), price: '', includedOrganizations: '0', freeOrganizations: '0' },
  });
  const onSubmit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ uuid: tier?.uuid, body });
      snackbar.show({ type: 'success', title: tier ? 'Palier modifié' : 'Palier ajouté' });
      onDone();
    } catch (error) {
      setServerFieldErrors(error, setError, FIELDS);
      showActionError(error, 'Erreur lors de l’enregistrement du palier');
    }
  });
  return (
    <Box component="form" noValidate aria-label={tier ? 'Modifier le palier' : 'Nouveau palier'} onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2, p: 2, border: 1, borderColor: 'divider', borderRadius: 2 }}>
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        {tier ? 'Modifier le palier' : 'Nouveau palier'}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { sm: '1fr 1fr' } }}>
        <FormTextField control={control} name="title" label="Nom du palier" required autoFocus fullWidth />
        <FormDateField control={control} name="startDate" label="Date de début" required />
        <FormTextField control={control} name="price" label="Prix par véhicule et par mois (€ HT)" inputMode="decimal" placeholder="12,00" required fullWidth />
        <FormTextField control={control} name="includedOrganizations" label="Organisations incluses" inputMode="numeric" fullWidth />
        <FormTextField control={control} name="freeOrganizations" label="Organisations gratuites" inputMode="numeric" fullWidth />
      </Box>
      <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
        <Button onClick={onDone} disabled={save.isPending}>
          Annuler
        </Button>
        <Button type="submit" variant="contained" loading={save.isPending}>
          {tier ? 'Enregistrer le palier' : 'Ajouter le palier'}
        </Button>
      </Box>
    </Box>
  );
}

/** « Paliers »: the space's dated prices, sorted by start, the one in force marked; add, edit, delete. */
export function TiersDialog({ space, onClose }: { space: RootSpace; onClose: () => void }) {
  const tiers = useTiers(space.uuid);
  const remove = useDeleteTier(space.uuid);
  const [editing, setEditing] = useState<Tier | 'new' | null>(null);
  // Asked first: the space's prices then follow another tier. Kept after closing, for the fade-out.
  const [doomed, setDoomed] = useState<{ tier: Tier; open: boolean } | null>(null);

  const onDelete = async (tier: Tier) => {
    try {
      await remove.mutateAsync(tier.uuid);
      setDoomed({ tier, open: false });
      snackbar.show({ type: 'success', title: 'Palier supprimé', description: `« ${tier.title} »` });
    } catch (error) {
      showActionError(error, 'Erreur lors de la suppression du palier');
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="tiers-title">
      <DialogTitle id="tiers-title">Paliers de {space.title}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2 }}>
        <Typography variant="body2" color="textSecondary">
          Le palier en vigueur est le dernier dont la date de début est passée (à minuit, heure de Paris).
        </Typography>
        {tiers.error ? <Alert severity="error">{tiers.error.message}</Alert> : null}
        {tiers.data && tiers.data.data.length === 0 ? <Typography>Aucun palier pour cet espace.</Typography> : null}
        {tiers.data && tiers.data.data.length > 0 ? (
          <List aria-label="Paliers" disablePadding>
            {tiers.data.data.map((tier) => (
              <ListItem
                key={tier.uuid}
                divider
                secondaryAction={
                  <Box sx={{ display: 'flex', gap: 0.5 }}>
                    <IconButton aria-label={`Modifier le palier ${tier.title}`} onClick={() => setEditing(tier)}>
                      <EditOutlined fontSize="small" />
                    </IconButton>
                    <IconButton aria-label={`Supprimer le palier ${tier.title}`} onClick={() => setDoomed({ tier, open: true })} disabled={remove.isPending}>
                      <DeleteOutlined fontSize="small" />
                    </IconButton>
                  </Box>
                }
                sx={{ pr: 12 }}
              >
                <ListItemText
                  primary={
                    <Box component="span" sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                      <span>{tier.title}</span>
                      {tiers.data.current === tier.uuid ? <Chip size="small" color="success" label="En vigueur" /> : null}
                    </Box>
                  }
                  secondary={`À partir du ${formatDate(tier.startDate)} · ${formatTierPrice(tier.priceCents)} · ${formatTierOrganizations(tier)}`}
                />
              </ListItem>
            ))}
          </List>
        ) : null}
        {editing ? (
          <TierForm key={editing === 'new' ? 'new' : editing.uuid} environment={space.uuid} tier={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : (
          <Box>
            <Button startIcon={<AddOutlined />} onClick={() => setEditing('new')}>
              Ajouter un palier
            </Button>
          </Box>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2 }}>
        <Button onClick={onClose}>Fermer</Button>
      </DialogActions>
      <LazyConfirmDialog
        open={doomed?.open ?? false}
        title={`Supprimer le palier « ${doomed?.tier.title ?? ''} » ?`}
        description={
          doomed && tiers.data?.current === doomed.tier.uuid
            ? 'C’est le palier en vigueur : les prix de l’espace suivront le palier précédent. Cette action est irréversible.'
            : 'Cette action est irréversible.'
        }
        confirmLabel="Supprimer le palier"
        onConfirm={() => (doomed ? onDelete(doomed.tier) : undefined)}
        onClose={() => setDoomed((current) => (current ? { ...current, open: false } : null))}
      />
    </Dialog>
  );
}
