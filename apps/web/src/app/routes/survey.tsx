import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import {
  SURVEY_LINK_EXPIRED_MESSAGE,
  SURVEY_LINK_UNKNOWN_MESSAGE,
  SURVEY_LINK_USED_MESSAGE,
  type SurveyOpenResponse,
} from '@flotte/contract';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { DocumentTitle } from '../../components/document-title';
import { answerSurvey, openSurveyLink } from '../../features/surveys/api/surveys';
import { SurveyForm, serverErrorsByQuestion } from '../../features/surveys/components/survey-form';
import { ApiError } from '../../lib/api-error';
import { PublicShell } from '../layouts/public-shell';

const FAILED = 'Le questionnaire n’a pas pu être chargé. Vérifiez votre connexion puis réessayez.';
const SEND_FAILED = 'Vos réponses n’ont pas pu être envoyées. Vérifiez votre connexion puis réessayez : rien n’est perdu.';
const NO_TOKEN =
  'Cette adresse ne mène à aucun questionnaire : il manque le lien personnel reçu par e-mail. Ouvrez le bouton « Répondre au questionnaire » de votre message.';

type Page =
  | { state: 'loading' }
  | { state: 'refused'; title: string; message: string; severity: 'info' | 'warning' | 'success' }
  | { state: 'thanks' }
  | Extract<SurveyOpenResponse, { state: 'open' }>;

const refusals = {
  missing: { title: 'Lien incomplet', message: NO_TOKEN, severity: 'info' },
  unknown: { title: 'Lien non reconnu', message: SURVEY_LINK_UNKNOWN_MESSAGE, severity: 'warning' },
  expired: { title: 'Lien expiré', message: SURVEY_LINK_EXPIRED_MESSAGE, severity: 'warning' },
  answered: { title: 'Déjà répondu', message: SURVEY_LINK_USED_MESSAGE, severity: 'success' },
} as const;

const refused = (kind: keyof typeof refusals): Page => ({ state: 'refused', ...refusals[kind] });

/** The API's 404 and 410 answers as the page's own cases. */
function refusalOf(error: unknown): Page | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 404) return refused('unknown');
  if (error.status === 410) return error.message === SURVEY_LINK_EXPIRED_MESSAGE ? refused('expired') : refused('answered');
  return null;
}

/**
 * /survey/{token}: a survey answered without signing in, once, through the personal link of an
 * e-mail (decision 038). Without a token, or with a link unknown, expired or used, it says so.
 */
export default function SurveyRoute() {
  const { token = '' } = useParams();
  return <SurveyPage key={token} token={token} />;
}

function SurveyPage({ token }: { token: string }) {
  const [page, setPage] = useState<Page>(token ? { state: 'loading' } : refused('missing'));
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    openSurveyLink(token, controller.signal).then(
      (answer) => setPage(answer.state === 'open' ? answer : refused(answer.state)),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setPage(refusalOf(error) ?? { state: 'refused', title: 'Questionnaire indisponible', message: error instanceof ApiError && error.status !== 0 ? error.message : FAILED, severity: 'warning' });
      },
    );
    return () => controller.abort();
  }, [token]);

  const title = page.state === 'open' ? page.survey.title : page.state === 'refused' ? page.title : page.state === 'thanks' ? 'Merci !' : 'Questionnaire';

  return (
    <PublicShell maxWidth={640}>
      <DocumentTitle title={title} />
      {page.state === 'loading' ? (
        <Box role="status" aria-label="Chargement du questionnaire…" sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
          <CircularProgress aria-hidden />
        </Box>
      ) : page.state === 'refused' ? (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Typography component="h1" variant="h5">
            {page.title}
          </Typography>
          <Alert severity={page.severity}>{page.message}</Alert>
        </Box>
      ) : page.state === 'thanks' ? (
        <Box sx={{ display: 'grid', gap: 2 }} role="status">
          <Typography component="h1" variant="h5">
            Merci pour vos réponses !
          </Typography>
          <Typography>Elles ont bien été enregistrées et aideront votre courtier à mieux vous accompagner. Vous pouvez fermer cette page.</Typography>
        </Box>
      ) : (
        <Box sx={{ display: 'grid', gap: 2 }}>
          <Box>
            <Typography component="h1" variant="h5" sx={{ overflowWrap: 'anywhere' }}>
              {page.survey.title}
            </Typography>
            <Typography color="textSecondary" sx={{ fontSize: 14, mt: 0.5 }}>
              Pour {page.organization} · lien valable jusqu’au {new Date(page.expiresAt).toLocaleDateString('fr-FR')}
            </Typography>
          </Box>
          {page.survey.introduction && <Typography sx={{ whiteSpace: 'pre-line' }}>{page.survey.introduction}</Typography>}
          <SurveyForm
            questions={page.survey.questions}
            failure={failure}
            onSubmit={async (answers) => {
              setFailure(null);
              try {
                await answerSurvey({ token, answers });
                setPage({ state: 'thanks' });
                window.scrollTo(0, 0);
                return null;
              } catch (error) {
                const gone = refusalOf(error);
                if (gone) {
                  setPage(gone);
                  return null;
                }
                if (error instanceof ApiError && error.status === 400) return serverErrorsByQuestion(page.survey.questions, answers, error.details);
                setFailure(error instanceof ApiError && error.status !== 0 ? error.message : SEND_FAILED);
                return null;
              }
            }}
          />
        </Box>
      )}
    </PublicShell>
  );
}
