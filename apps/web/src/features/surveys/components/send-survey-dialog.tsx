import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import { SURVEY_AUDIENCE_LABELS, SURVEY_AUDIENCES, SURVEY_LINK_DEFAULT_DAYS, SURVEY_LINK_MAX_DAYS, type SendSurveyResult, type SurveyAudience } from '@flotte/contract';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-error';
import { sendSurvey, surveyAudience, surveyKeys } from '../api/surveys';

type Props = { surveyUuid: string; open: boolean; onClose: () => void; onSent: (result: SendSurveyResult) => void };

/** Whom to send the survey to: the members or the drivers of chosen organizations of the environment, and how long the links work. */
export function SendSurveyDialog({ surveyUuid, open, onClose, onSent }: Props) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  const audience = useQuery({ queryKey: surveyKeys.audience(surveyUuid), queryFn: ({ signal }) => surveyAudience(surveyUuid, signal), enabled: open });
  const [chosen, setChosen] = useState<string[]>([]);
  const [who, setWho] = useState<SurveyAudience>('members');
  const [days, setDays] = useState(String(SURVEY_LINK_DEFAULT_DAYS));
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const organizations = audience.data?.data ?? [];
  const daysNumber = Number(days);
  const daysError = !Number.isInteger(daysNumber) || daysNumber < 1 || daysNumber > SURVEY_LINK_MAX_DAYS ? `Entre 1 et ${SURVEY_LINK_MAX_DAYS} jours` : null;

  const send = async () => {
    setError(null);
    if (chosen.length === 0) return setError('Choisissez au moins une organisation');
    if (daysError) return;
    setSending(true);
    try {
      onSent(await sendSurvey(surveyUuid, { organizations: chosen, audience: who, expiresInDays: daysNumber }));
    } catch (e) {
      setError(e instanceof ApiError && e.status !== 0 ? e.message : 'L’envoi a échoué. Réessayez.');
    } finally {
      setSending(false);
    }
  };

  const all = organizations.length > 0 && chosen.length === organizations.length;
  return (
    <Dialog open={open} onClose={onClose} fullScreen={phone} fullWidth maxWidth="sm" aria-labelledby="send-survey-title">
      <DialogTitle id="send-survey-title">Envoyer le questionnaire</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 2.5 }}>
        <FormControl component="fieldset">
          <FormLabel component="legend">Destinataires</FormLabel>
          <RadioGroup row value={who} onChange={(e) => setWho(e.target.value as SurveyAudience)}>
            {SURVEY_AUDIENCES.map((a) => (
              <FormControlLabel key={a} value={a} control={<Radio />} label={SURVEY_AUDIENCE_LABELS[a]} />
            ))}
          </RadioGroup>
        </FormControl>
        <FormControl component="fieldset" error={Boolean(error) && chosen.length === 0}>
          <FormLabel component="legend">Organisations</FormLabel>
          {audience.isPending ? (
            <Skeleton variant="rounded" height={96} aria-hidden />
          ) : audience.isError ? (
            <Alert severity="error">Les organisations n’ont pas pu être chargées.</Alert>
          ) : organizations.length === 0 ? (
            <Alert severity="info">Votre espace n’a encore aucune organisation cliente.</Alert>
          ) : (
            <FormGroup>
              <FormControlLabel
                control={<Checkbox checked={all} indeterminate={chosen.length > 0 && !all} onChange={(e) => setChosen(e.target.checked ? organizations.map((o) => o.uuid) : [])} />}
                label="Toutes les organisations"
              />
              <Box sx={{ pl: 3, display: 'grid' }}>
                {organizations.map((o) => {
                  const reach = who === 'members' ? o.members : o.drivers;
                  return (
                    <FormControlLabel
                      key={o.uuid}
                      control={<Checkbox checked={chosen.includes(o.uuid)} onChange={(e) => setChosen((c) => (e.target.checked ? [...c, o.uuid] : c.filter((x) => x !== o.uuid)))} />}
                      label={`${o.title} — ${reach} ${who === 'members' ? 'membre' : 'conducteur'}${reach > 1 ? 's' : ''}${o.sent > 0 ? `, ${o.sent} déjà envoyé${o.sent > 1 ? 's' : ''}` : ''}`}
                    />
                  );
                })}
              </Box>
            </FormGroup>
          )}
        </FormControl>
        <TextField
          label="Validité des liens (jours)"
          type="number"
          value={days}
          onChange={(e) => setDays(e.target.value)}
          error={Boolean(daysError)}
          helperText={daysError ?? 'Chaque lien personnel ne sert qu’une fois, jusqu’à cette échéance.'}
          slotProps={{ htmlInput: { min: 1, max: SURVEY_LINK_MAX_DAYS } }}
          sx={{ maxWidth: 260 }}
        />
        {error && <Alert severity="error">{error}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Annuler</Button>
        <Button variant="contained" onClick={() => void send()} loading={sending}>
          Envoyer
        </Button>
      </DialogActions>
    </Dialog>
  );
}
