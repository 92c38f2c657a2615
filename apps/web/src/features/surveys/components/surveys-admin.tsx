import Add from '@mui/icons-material/Add';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Send from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { percentOf, type Survey, type SurveySummary } from '@flotte/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ResponsiveTable } from '../../../components/responsive-table';
import { SectionCard } from '../../../components/section-card';
import { snackbar } from '../../../components/snackbar/snackbar';
import { ApiError } from '../../../lib/api-error';
import { createSurvey, deleteSurvey, getSurvey, listSurveys, surveyKeys, updateSurvey } from '../api/surveys';
import { SendSurveyDialog } from './send-survey-dialog';
import { SurveyEditor } from './survey-editor';
import { SurveyResultsView } from './survey-results';

/** The inner state in the URL (beside the page's own `onglet`): the survey open, its view, the results' organization. */
const PARAM = { survey: 'questionnaire', view: 'vue', organization: 'organisation' } as const;
const NEW = 'nouveau';

function useSurveyParams() {
  const [params, setParams] = useSearchParams();
  const go = (next: { survey?: string | null; view?: string | null; organization?: string | null }) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      for (const [k, name] of Object.entries(PARAM) as [keyof typeof PARAM, string][]) {
        if (k in next) {
          const value = next[k];
          if (value) copy.set(name, value);
          else copy.delete(name);
        }
      }
      return copy;
    });
  return { survey: params.get(PARAM.survey), view: params.get(PARAM.view), organization: params.get(PARAM.organization), go, params };
}

const rate = (s: SurveySummary) => (s.sent === 0 ? '—' : `${percentOf(s.answered, s.sent).toLocaleString('fr-FR')} %`);

function StatusChip({ status }: { status: SurveySummary['status'] }) {
  return status === 'draft' ? <Chip size="small" label="Brouillon" variant="outlined" /> : <Chip size="small" label="Envoyé" color="success" variant="outlined" />;
}

/**
 * The broker's surveys (issue 16, decision 038), rendered in the « Questionnaires » tab of
 * /superadmin/alerts: the list with status and response rate, the draft's editor, the sending,
 * and the results with their exports. Its state lives in the URL's search params.
 */
export default function SurveysAdmin() {
  const { survey, view, organization, go, params } = useSurveyParams();
  const linkTo = (uuid: string) => {
    const next = new URLSearchParams(params);
    next.set(PARAM.survey, uuid);
    next.delete(PARAM.view);
    next.delete(PARAM.organization);
    return `?${next.toString()}`;
  };
  if (!survey) return <SurveyList onNew={() => go({ survey: NEW, view: null })} linkTo={linkTo} />;
  if (survey === NEW) return <NewSurvey onDone={(uuid) => go({ survey: uuid })} onCancel={() => go({ survey: null })} />;
  return <OneSurvey uuid={survey} view={view} organization={organization} go={go} />;
}

function SurveyList({ onNew, linkTo }: { onNew: () => void; linkTo: (uuid: string) => string }) {
  const list = useQuery({ queryKey: surveyKeys.list(), queryFn: ({ signal }) => listSurveys(signal) });
  return (
    <SectionCard
      id="questionnaires"
      title="Questionnaires"
      description="Interrogez les membres ou les conducteurs de vos organisations clientes : chacun reçoit un lien personnel par e-mail."
      action={
        <Button variant="contained" startIcon={<Add />} onClick={onNew}>
          Nouveau questionnaire
        </Button>
      }
    >
      {list.isPending ? (
        <Skeleton variant="rounded" height={120} aria-hidden />
      ) : list.isError ? (
        <Alert severity="error">Les questionnaires n’ont pas pu être chargés. Rechargez la page.</Alert>
      ) : list.data.data.length === 0 ? (
        <Typography color="textSecondary">Aucun questionnaire pour l’instant. Créez le premier : quelques questions suffisent.</Typography>
      ) : (
        <ResponsiveTable
          label="Questionnaires"
          rows={list.data.data}
          rowKey={(s) => s.uuid}
          title={{
            label: 'Questionnaire',
            value: (s) => (
              <Link component={RouterLink} to={linkTo(s.uuid)}>
                {s.title}
              </Link>
            ),
          }}
          columns={[
            { label: 'État', value: (s) => <StatusChip status={s.status} /> },
            { label: 'Questions', value: (s) => s.questionCount, numeric: true },
            { label: 'Envoyés', value: (s) => s.sent, numeric: true },
            { label: 'Réponses', value: (s) => s.answered, numeric: true },
            { label: 'Taux de réponse', value: rate, numeric: true },
          ]}
        />
      )}
    </SectionCard>
  );
}

function NewSurvey({ onDone, onCancel }: { onDone: (uuid: string) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  return (
    <SectionCard id="questionnaire" title="Nouveau questionnaire" description="Enregistrez-le en brouillon, puis envoyez-le aux organisations de votre choix.">
      <SurveyEditor
        survey={null}
        onCancel={onCancel}
        onSave={async (body) => {
          const created = await createSurvey(body);
          queryClient.setQueryData(surveyKeys.detail(created.uuid), created);
          void queryClient.invalidateQueries({ queryKey: surveyKeys.list() });
          snackbar.show({ type: 'success', title: 'Questionnaire enregistré', description: 'Le brouillon est prêt à être envoyé.' });
          onDone(created.uuid);
        }}
      />
    </SectionCard>
  );
}

type Go = ReturnType<typeof useSurveyParams>['go'];

function OneSurvey({ uuid, view, organization, go }: { uuid: string; view: string | null; organization: string | null; go: Go }) {
  const queryClient = useQueryClient();
  const survey = useQuery({ queryKey: surveyKeys.detail(uuid), queryFn: ({ signal }) => getSurvey(uuid, signal) });
  const [sending, setSending] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteSurvey(uuid),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: surveyKeys.all });
      snackbar.show({ type: 'success', title: 'Brouillon supprimé', description: 'Le questionnaire a été supprimé.' });
      go({ survey: null, view: null });
    },
    onError: (error) => snackbar.show({ type: 'error', title: 'Erreur', description: error instanceof ApiError ? error.message : 'La suppression a échoué.' }),
  });
  const back = (
    <Button startIcon={<ArrowBack />} onClick={() => go({ survey: null, view: null, organization: null })} sx={{ justifySelf: 'start' }}>
      Tous les questionnaires
    </Button>
  );

  if (survey.isPending) return <Skeleton variant="rounded" height={240} aria-hidden />;
  if (survey.isError) {
    return (
      <Box sx={{ display: 'grid', gap: 2 }}>
        {back}
        <Alert severity="error">{survey.error instanceof ApiError && survey.error.status === 404 ? 'Ce questionnaire n’existe pas ou plus.' : 'Le questionnaire n’a pas pu être chargé.'}</Alert>
      </Box>
    );
  }
  const data: Survey = survey.data;
  const editing = data.status === 'draft' && view === 'modifier';
  const showResults = data.status === 'sent' || view === 'resultats';

  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      {back}
      <SectionCard
        id="questionnaire"
        title={data.title}
        description={
          <>
            <StatusChip status={data.status} /> {data.questions.length} question{data.questions.length > 1 ? 's' : ''}
            {data.sentAt ? ` · envoyé le ${new Date(data.sentAt).toLocaleDateString('fr-FR')}` : ''}
          </>
        }
        action={
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            {data.status === 'draft' && !editing && (
              <>
                <Button onClick={() => go({ view: 'modifier' })}>Modifier</Button>
                <Button color="error" onClick={() => remove.mutate()} loading={remove.isPending}>
                  Supprimer
                </Button>
              </>
            )}
            {!editing && (
              <Button variant="contained" startIcon={<Send />} onClick={() => setSending(true)}>
                {data.status === 'draft' ? 'Envoyer' : 'Envoyer à d’autres'}
              </Button>
            )}
          </Box>
        }
      >
        {editing ? (
          <SurveyEditor
            survey={data}
            onCancel={() => go({ view: null })}
            onSave={async (body) => {
              const saved = await updateSurvey(uuid, body);
              queryClient.setQueryData(surveyKeys.detail(uuid), saved);
              void queryClient.invalidateQueries({ queryKey: surveyKeys.list() });
              snackbar.show({ type: 'success', title: 'Questionnaire enregistré', description: 'Vos modifications sont enregistrées.' });
              go({ view: null });
            }}
          />
        ) : showResults ? null : (
          <Box sx={{ display: 'grid', gap: 1 }}>
            {data.introduction && <Typography sx={{ whiteSpace: 'pre-line' }}>{data.introduction}</Typography>}
            <Box component="ol" sx={{ m: 0, pl: 3, display: 'grid', gap: 0.5 }}>
              {data.questions.map((q) => (
                <li key={q.uuid}>
                  {q.label}
                  {q.required ? ' *' : ''}
                  {q.choices.length > 0 && (
                    <Typography variant="body2" color="textSecondary">
                      {q.choices.map((c) => c.label).join(' · ')} ({q.kind === 'single' ? 'un choix' : 'plusieurs choix'})
                    </Typography>
                  )}
                </li>
              ))}
            </Box>
          </Box>
        )}
      </SectionCard>
      {showResults && !editing && <SurveyResultsView survey={data} organization={organization} onOrganization={(o) => go({ organization: o })} />}
      {sending && (
        <SendSurveyDialog
          surveyUuid={uuid}
          open
          onClose={() => setSending(false)}
          onSent={(result) => {
            setSending(false);
            void queryClient.invalidateQueries({ queryKey: surveyKeys.all });
            snackbar.show({
              type: 'success',
              title: 'Questionnaire envoyé',
              description: `${result.sent} lien${result.sent > 1 ? 's' : ''} envoyé${result.sent > 1 ? 's' : ''}${result.alreadySent ? `, ${result.alreadySent} déjà reçu${result.alreadySent > 1 ? 's' : ''}` : ''}${result.withoutEmail ? `, ${result.withoutEmail} sans adresse e-mail` : ''}.`,
            });
            go({ view: 'resultats' });
          }}
        />
      )}
    </Box>
  );
}
