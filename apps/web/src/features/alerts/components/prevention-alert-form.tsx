import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ALERT_BODY_MAX,
  ALERT_SEVERITIES,
  ALERT_SEVERITY_LABELS,
  ALERT_TARGET_RULE_LABELS,
  ALERT_TARGET_RULES,
  ALERT_TITLE_MAX,
  type AlertTargetRule,
  CreatePreventionAlertBodySchema,
  type CreatePreventionAlertBody,
} from '@flotte/contract';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { FormTextField } from '../../../components/form/form-text-field';
import { setServerFieldErrors } from '../../../components/form/server-errors';
import { Markdown } from '../../../components/markdown/markdown';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useAlertRecipients, useCreatePreventionAlert } from '../api/alerts-api';

type FormValues = {
  title: string;
  body: string;
  severity: string;
  targetKind: 'all' | 'organizations' | 'rule';
  organizations: string[];
  rule: AlertTargetRule;
  publishAt: string;
};

const DEFAULTS: FormValues = { title: '', body: '', severity: 'information', targetKind: 'all', organizations: [], rule: 'limitReached', publishAt: '' };
const FIELDS = ['title', 'body', 'severity', 'publishAt'] as const;

/** What the form sends: the contract's body (a local date and time becomes an instant). */
export function toBody(values: FormValues): CreatePreventionAlertBody {
  const target =
    values.targetKind === 'all' ? { kind: 'all' as const } : values.targetKind === 'organizations' ? { kind: 'organizations' as const, organizations: values.organizations } : { kind: 'rule' as const, rule: values.rule };
  const publishAt = values.publishAt ? new Date(values.publishAt) : null;
  return {
    title: values.title,
    body: values.body,
    severity: values.severity as CreatePreventionAlertBody['severity'],
    target,
    ...(publishAt ? { publishAt: Number.isNaN(publishAt.getTime()) ? values.publishAt : publishAt.toISOString() } : {}),
  };
}

/** A superadmin writes a prevention alert for the organizations of its environment. */
export function PreventionAlertForm({ environment }: { environment: string }) {
  const create = useCreatePreventionAlert(environment);
  const organizations = useAlertRecipients(environment);
  const [preview, setPreview] = useState(false);
  const { control, handleSubmit, setError, reset, clearErrors, formState } = useForm<FormValues>({ defaultValues: DEFAULTS });
  const targetKind = useWatch({ control, name: 'targetKind' });
  const body = useWatch({ control, name: 'body' });
  const onSubmit = handleSubmit(async (values) => {
    clearErrors();
    const parsed = CreatePreventionAlertBodySchema.safeParse(toBody(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path[0] === 'target' ? (values.targetKind === 'organizations' ? 'organizations' : 'targetKind') : (issue.path[0] as keyof FormValues);
        setError(path, { type: 'validate', message: issue.message });
      }
      return;
    }
    try {
      const written = await create.mutateAsync(toBody(values));
      const when = new Date(written.publishAt) > new Date() ? 'programmée' : 'publiée';
      snackbar.show({ type: 'success', title: `Alerte ${when}`, description: `Envoyée à ${written.organizations} organisation${written.organizations > 1 ? 's' : ''}.` });
      reset(DEFAULTS);
      setPreview(false);
    } catch (error) {
      setServerFieldErrors(error, setError, FIELDS);
      snackbar.show({ type: 'error', title: "L'alerte n'a pas été publiée", description: error instanceof Error ? error.message : undefined });
    }
  });
  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
      <FormTextField control={control} name="title" label="Titre" required slotProps={{ htmlInput: { maxLength: ALERT_TITLE_MAX } }} />
      <Box sx={{ display: 'grid', gap: 1 }}>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" color="textSecondary">
            Message en Markdown : **gras**, *italique*, listes « - », liens [texte](https://…).
          </Typography>
          <Button size="small" onClick={() => setPreview((shown) => !shown)} aria-pressed={preview}>
            {preview ? 'Modifier' : 'Aperçu'}
          </Button>
        </Box>
        {preview ? (
          <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, minHeight: 120 }} aria-label="Aperçu du message">
            {body.trim() ? <Markdown source={body} headingOffset={2} /> : <Typography color="textSecondary">Rien à afficher.</Typography>}
          </Box>
        ) : (
          <FormTextField control={control} name="body" label="Message" required multiline minRows={5} slotProps={{ htmlInput: { maxLength: ALERT_BODY_MAX } }} />
        )}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <Controller
          control={control}
          name="severity"
          render={({ field, fieldState }) => (
            <TextField select label="Gravité" {...field} error={fieldState.invalid} helperText={fieldState.error?.message}>
              {ALERT_SEVERITIES.map((value) => (
                <MenuItem key={value} value={value}>
                  {ALERT_SEVERITY_LABELS[value]}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        <FormTextField
          control={control}
          name="publishAt"
          label="Date de publication"
          type="datetime-local"
          helperText="Vide : publiée dès maintenant"
          slotProps={{ inputLabel: { shrink: true } }}
        />
      </Box>
      <Controller
        control={control}
        name="targetKind"
        render={({ field, fieldState }) => (
          <FormControl error={fieldState.invalid}>
            <FormLabel id="alert-target-label">Destinataires</FormLabel>
            <RadioGroup aria-labelledby="alert-target-label" {...field}>
              <FormControlLabel value="all" control={<Radio />} label="Toutes les organisations de l'environnement" />
              <FormControlLabel value="organizations" control={<Radio />} label="Des organisations choisies" />
              <FormControlLabel value="rule" control={<Radio />} label="Les organisations qui remplissent une condition" />
            </RadioGroup>
            {fieldState.error && <Typography color="error" variant="caption">{fieldState.error.message}</Typography>}
          </FormControl>
        )}
      />
      {targetKind === 'organizations' && (
        <Controller
          control={control}
          name="organizations"
          render={({ field, fieldState }) => (
            <TextField
              select
              label="Organisations"
              value={field.value}
              onChange={(event) => field.onChange(event.target.value as unknown as string[])}
              error={fieldState.invalid}
              helperText={fieldState.error?.message ?? (organizations.isPending ? 'Chargement des organisations…' : undefined)}
              slotProps={{
                select: {
                  multiple: true,
                  renderValue: (selected) => {
                    const uuids = selected as string[];
                    return (organizations.data ?? []).filter((o) => uuids.includes(o.uuid)).map((o) => o.title).join(', ');
                  },
                },
              }}
            >
              {(organizations.data ?? []).map((organization) => (
                <MenuItem key={organization.uuid} value={organization.uuid}>
                  <Checkbox checked={field.value.includes(organization.uuid)} size="small" />
                  <ListItemText primary={organization.title} />
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      {targetKind === 'rule' && (
        <Controller
          control={control}
          name="rule"
          render={({ field }) => (
            <TextField select label="Condition" {...field} helperText="Évaluée au moment de la publication, sur les alertes automatiques en cours">
              {ALERT_TARGET_RULES.map((value) => (
                <MenuItem key={value} value={value}>
                  {ALERT_TARGET_RULE_LABELS[value]}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
      )}
      <Box>
        <Button type="submit" variant="contained" loading={formState.isSubmitting}>
          Publier l'alerte
        </Button>
      </Box>
    </Box>
  );
}
