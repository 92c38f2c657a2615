import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { SURVEY_ANSWER_TEXT_MAX, SURVEY_REQUIRED_MESSAGE, type SurveyAnswerInput, type SurveyQuestion } from '@flotte/contract';
import { useState } from 'react';
import type { ApiErrorDetail } from '../../../lib/api-error';

export type SurveyAnswers = Record<string, { text?: string; choices?: string[] }>;

/** The answers as the API takes them: only the questions given a value. */
export function answersBody(questions: readonly SurveyQuestion[], answers: SurveyAnswers): SurveyAnswerInput[] {
  return questions.flatMap((q): SurveyAnswerInput[] => {
    const answer = answers[q.uuid];
    if (q.kind === 'text') return answer?.text?.trim() ? [{ question: q.uuid, text: answer.text.trim() }] : [];
    return answer?.choices?.length ? [{ question: q.uuid, choices: answer.choices }] : [];
  });
}

/** The required questions left empty: their French message, by question. */
export function missingAnswers(questions: readonly SurveyQuestion[], answers: SurveyAnswers): Record<string, string> {
  const given = new Set(answersBody(questions, answers).map((a) => a.question));
  return Object.fromEntries(questions.filter((q) => q.required && !given.has(q.uuid)).map((q) => [q.uuid, SURVEY_REQUIRED_MESSAGE]));
}

/** The API's refusal (`answers.N…` or `questions.N`) put on its question. */
export function serverErrorsByQuestion(questions: readonly SurveyQuestion[], body: SurveyAnswerInput[], details: readonly ApiErrorDetail[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const detail of details) {
    const [kind, index] = detail.path.split('.');
    const uuid = kind === 'answers' ? body[Number(index)]?.question : kind === 'questions' ? questions[Number(index)]?.uuid : undefined;
    if (uuid && !errors[uuid]) errors[uuid] = detail.message;
  }
  return errors;
}

type Props = {
  questions: readonly SurveyQuestion[];
  /** Sends the answers; resolves to the API's field errors (by question) when it refuses them, or null. */
  onSubmit: (body: SurveyAnswerInput[]) => Promise<Record<string, string> | null>;
  failure: string | null;
};

/**
 * The questions of a survey as an accessible form: each question a fieldset with its legend, a
 * required one marked (and said), its error under it in French; works on a 390 px phone.
 */
export function SurveyForm({ questions, onSubmit, failure }: Props) {
  const [answers, setAnswers] = useState<SurveyAnswers>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);

  const set = (uuid: string, value: { text?: string; choices?: string[] }) => {
    setAnswers((previous) => ({ ...previous, [uuid]: value }));
    setErrors(({ [uuid]: _gone, ...rest }) => rest);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const missing = missingAnswers(questions, answers);
    setErrors(missing);
    const first = questions.find((q) => missing[q.uuid]);
    if (first) {
      document.getElementById(`question-${first.uuid}`)?.querySelector<HTMLElement>('input, textarea')?.focus();
      return;
    }
    setSending(true);
    try {
      const refused = await onSubmit(answersBody(questions, answers));
      if (refused) setErrors(refused);
    } finally {
      setSending(false);
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gap: 3 }}>
      <Box component="p" sx={{ m: 0, color: 'text.secondary', fontSize: 14 }}>
        Les questions marquées d’un astérisque (*) sont obligatoires.
      </Box>
      {questions.map((question, index) => {
        const error = errors[question.uuid];
        const errorId = `question-${question.uuid}-error`;
        const answer = answers[question.uuid];
        const legend = (
          <FormLabel component="legend" sx={{ color: 'text.primary', fontWeight: 600, mb: 1, '&.Mui-focused': { color: 'text.primary' } }}>
            {index + 1}. {question.label}
            {question.required && (
              <>
                <Box component="span" sx={visuallyHidden}>
                  {' '}
                  (obligatoire)
                </Box>
              </>
            )}
          </FormLabel>
        );
        return (
          <FormControl key={question.uuid} id={`question-${question.uuid}`} component="fieldset" error={Boolean(error)} required={question.required} sx={{ minWidth: 0 }}>
            {legend}
            {question.kind === 'text' ? (
              <TextField
                multiline
                minRows={3}
                fullWidth
                value={answer?.text ?? ''}
                onChange={(e) => set(question.uuid, { text: e.target.value })}
                slotProps={{ htmlInput: { maxLength: SURVEY_ANSWER_TEXT_MAX, 'aria-label': question.label, 'aria-describedby': error ? errorId : undefined, 'aria-invalid': Boolean(error) } }}
                error={Boolean(error)}
              />
            ) : question.kind === 'single' ? (
              <RadioGroup value={answer?.choices?.[0] ?? ''} onChange={(e) => set(question.uuid, { choices: [e.target.value] })} aria-describedby={error ? errorId : undefined}>
                {question.choices.map((choice) => (
                  <FormControlLabel key={choice.uuid} value={choice.uuid} control={<Radio />} label={choice.label} sx={{ minHeight: 44 }} />
                ))}
              </RadioGroup>
            ) : (
              <FormGroup aria-describedby={error ? errorId : undefined}>
                {question.choices.map((choice) => {
                  const taken = answer?.choices ?? [];
                  return (
                    <FormControlLabel
                      key={choice.uuid}
                      sx={{ minHeight: 44 }}
                      control={
                        <Checkbox
                          checked={taken.includes(choice.uuid)}
                          onChange={(e) => set(question.uuid, { choices: e.target.checked ? [...taken, choice.uuid] : taken.filter((c) => c !== choice.uuid) })}
                        />
                      }
                      label={choice.label}
                    />
                  );
                })}
              </FormGroup>
            )}
            {question.kind === 'multiple' && !error && <FormHelperText>Plusieurs réponses possibles</FormHelperText>}
            {error && <FormHelperText id={errorId}>{error}</FormHelperText>}
          </FormControl>
        );
      })}
      {Object.keys(errors).length > 0 && (
        <Alert severity="error" role="alert">
          Certaines réponses manquent ou ne conviennent pas : voyez les questions signalées.
        </Alert>
      )}
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <Button type="submit" variant="contained" size="large" loading={sending} sx={{ justifySelf: { xs: 'stretch', sm: 'start' } }}>
        Envoyer mes réponses
      </Button>
    </Box>
  );
}

const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', p: 0, m: '-1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap', border: 0 } as const;
