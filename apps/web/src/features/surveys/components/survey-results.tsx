import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { SURVEY_QUESTION_KIND_LABELS, type Survey } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { DownloadButton } from '../../../components/download-button';
import { SectionCard } from '../../../components/section-card';
import { surveyKeys, surveyResults } from '../api/surveys';

/** The results' two exports (GET /api/survey/{uuid}/export). */
const SURVEY_EXPORTS = [
  { format: 'csv', accept: 'text/csv', label: 'CSV' },
  { format: 'xlsx', accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', label: 'XLSX' },
] as const;

const frNumber = (n: number) => n.toLocaleString('fr-FR', { maximumFractionDigits: 1 });

type Props = { survey: Survey; organization: string | null; onOrganization: (uuid: string | null) => void };

/** The answers summarised per question (counts, percentages, free texts), per organization, with the response rate and the exports. */
export function SurveyResultsView({ survey, organization, onOrganization }: Props) {
  const results = useQuery({ queryKey: surveyKeys.results(survey.uuid, organization), queryFn: ({ signal }) => surveyResults(survey.uuid, organization, signal) });

  if (results.isPending) return <Skeleton variant="rounded" height={240} aria-hidden />;
  if (results.isError) return <Alert severity="error">Les résultats n’ont pas pu être chargés. Rechargez la page.</Alert>;
  const data = results.data;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between' }}>
        <Box role="group" aria-label="Taux de réponse">
          <Typography variant="h5" component="p" sx={{ fontVariantNumeric: 'tabular-nums' }}>
            {data.responseRate === null ? '—' : `${frNumber(data.responseRate)} %`}
          </Typography>
          <Typography variant="body2" color="textSecondary">
            de réponses : {data.answered} sur {data.sent} envoi{data.sent > 1 ? 's' : ''}
          </Typography>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
          <TextField select size="small" label="Organisation" value={organization ?? ''} onChange={(e) => onOrganization(e.target.value || null)}
            sx={{ minWidth: 220 }}
            slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          >
            <MenuItem value="">Toutes les organisations</MenuItem>
            {data.organizations.map((o) => (
              <MenuItem key={o.uuid} value={o.uuid}>
                {o.title} ({o.answered}/{o.sent})
              </MenuItem>
            ))}
          </TextField>
          {SURVEY_EXPORTS.map(({ format, accept, label }) => (
            <DownloadButton
              key={format}
              variant="text"
              path={`/api/survey/${survey.uuid}/export`}
              accept={accept}
              query={{ format, organization }}
              fallbackName={`questionnaire.${format}`}
              failure="L’export a échoué."
            >
              {label}
            </DownloadButton>
          ))}
        </Box>
      </Box>
      {data.questions.map((question, index) => (
        <SectionCard
          key={question.uuid}
          id={`resultat-${question.uuid}`}
          title={`${index + 1}. ${question.label}`}
          description={`${SURVEY_QUESTION_KIND_LABELS[question.kind]} · ${question.answered} réponse${question.answered > 1 ? 's' : ''}${question.required ? ' · obligatoire' : ''}`}
        >
          {question.kind === 'text' ? (
            question.texts.length === 0 ? (
              <Typography color="textSecondary">Aucune réponse pour l’instant.</Typography>
            ) : (
              <Box component="ul" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 1 }}>
                {question.texts.map((t, i) => (
                  <li key={i}>
                    <Typography sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>{t.text}</Typography>
                    <Typography variant="caption" color="textSecondary">
                      {t.organization} · {new Date(t.submittedAt).toLocaleDateString('fr-FR')}
                    </Typography>
                  </li>
                ))}
              </Box>
            )
          ) : (
            <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.5 }}>
              {question.choices.map((choice) => {
                const count = question.counts.find((c) => c.choice === choice.uuid);
                return (
                  <Box component="li" key={choice.uuid}>
                    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
                      <Typography component="span">{choice.label}</Typography>
                      <Typography component="span" sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                        {count?.count ?? 0} · {frNumber(count?.percent ?? 0)} %
                      </Typography>
                    </Box>
                    <LinearProgress variant="determinate" value={count?.percent ?? 0} aria-label={`${choice.label} : ${frNumber(count?.percent ?? 0)} %`} sx={{ height: 8, borderRadius: 1 }} />
                  </Box>
                );
              })}
            </Box>
          )}
        </SectionCard>
      ))}
    </Box>
  );
}
