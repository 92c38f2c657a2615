import ArrowBack from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { CreateReportBodySchema, type ReportType } from '@flotte/contract';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { FormTextField } from '../../../components/form/form-text-field';
import { snackbar } from '../../../components/snackbar/snackbar';
import { useCreateReport } from '../api/create-report';
import { DescriptionCounter } from './description-counter';

type ReportFormInput = z.input<typeof CreateReportBodySchema>;
type ReportFormOutput = z.output<typeof CreateReportBodySchema>;

const TEXTS: Record<ReportType, { heading: string; intro: string; successTitle: string; success: string; failure: string }> = {
  bug: {
    heading: 'Signaler un bug',
    intro: 'Décrivez ce qui ne fonctionne pas et comment le reproduire.',
    successTitle: 'Envoi du bug',
    success: 'Votre bug a bien été envoyé',
    failure: "Erreur lors de l'envoi de votre bug",
  },
  suggestion: {
    heading: 'Proposer une suggestion',
    intro: 'Une idée pour améliorer FlotteAssur ? Nous vous lisons.',
    successTitle: 'Envoi de la suggestion',
    success: 'Votre suggestion a bien été envoyée',
    failure: "Erreur lors de l'envoi de votre suggestion",
  },
};

/** Bug or suggestion form of the support dialog; emptied after a successful send. */
export function ReportForm({ type, onBack }: { type: ReportType; onBack: () => void }) {
  const texts = TEXTS[type];
  const createReport = useCreateReport();
  const { control, handleSubmit, reset } = useForm<ReportFormInput, unknown, ReportFormOutput>({
    resolver: zodResolver(CreateReportBodySchema),
    defaultValues: { title: '', description: '', type },
  });
  const descriptionLength = useWatch({ control, name: 'description' }).length;

  const onSubmit = handleSubmit(async (body) => {
    try {
      await createReport.mutateAsync(body);
      snackbar.show({ type: 'success', title: texts.successTitle, description: texts.success });
      reset({ title: '', description: '', type });
    } catch {
      snackbar.show({ type: 'error', title: 'Erreur', description: texts.failure });
    }
  });

  return (
    <Box component="form" noValidate onSubmit={(event) => void onSubmit(event)} sx={{ display: 'grid', gap: 2 }}>
      <Box>
        <Button startIcon={<ArrowBack />} onClick={onBack} size="small" sx={{ ml: -1 }}>
          Retour
        </Button>
        <Typography component="h3" variant="h6" sx={{ mt: 1 }}>
          {texts.heading}
        </Typography>
        <Typography variant="body2" color="textSecondary">
          {texts.intro}
        </Typography>
      </Box>
      <FormTextField control={control} name="title" label="Titre" required autoFocus />
      <FormTextField
        control={control}
        name="description"
        label="Description"
        required
        multiline
        minRows={5}
        maxRows={12}
        counter={<DescriptionCounter length={descriptionLength} />}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" loading={createReport.isPending}>
          Envoyer
        </Button>
      </Box>
    </Box>
  );
}
