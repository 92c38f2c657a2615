import Add from '@mui/icons-material/Add';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  SURVEY_CHOICE_MAX,
  SURVEY_INTRODUCTION_MAX,
  SURVEY_QUESTION_KIND_LABELS,
  SURVEY_QUESTION_KINDS,
  SURVEY_QUESTION_MAX,
  SURVEY_TITLE_MAX,
  SurveyBodySchema,
  type Survey,
  type SurveyQuestionKind,
} from '@flotte/contract';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-error';

type DraftChoice = { key: string; uuid?: string; label: string };
type DraftQuestion = { key: string; uuid?: string; kind: SurveyQuestionKind; label: string; required: boolean; choices: DraftChoice[] };
export type SurveyDraft = { title: string; introduction: string; questions: DraftQuestion[] };

let nextKey = 0;
const key = () => `k${++nextKey}`;
const blankChoices = (): DraftChoice[] => [
  { key: key(), label: '' },
  { key: key(), label: '' },
];
export const newQuestion = (kind: SurveyQuestionKind = 'single'): DraftQuestion => ({ key: key(), kind, label: '', required: false, choices: kind === 'text' ? [] : blankChoices() });

export function draftOf(survey: Survey | null): SurveyDraft {
  if (!survey) return { title: '', introduction: '', questions: [newQuestion()] };
  return {
    title: survey.title,
    introduction: survey.introduction ?? '',
    questions: survey.questions.map((q) => ({ key: key(), uuid: q.uuid, kind: q.kind, label: q.label, required: q.required, choices: q.choices.map((c) => ({ key: key(), uuid: c.uuid, label: c.label })) })),
  };
}

/** The API's body of a draft: questions in their order, uuids kept so that moved questions stay themselves. */
export function bodyOf(draft: SurveyDraft) {
  return {
    title: draft.title,
    introduction: draft.introduction,
    questions: draft.questions.map((q) => ({
      ...(q.uuid ? { uuid: q.uuid } : {}),
      kind: q.kind,
      label: q.label,
      required: q.required,
      choices: q.kind === 'text' ? [] : q.choices.map((c) => ({ ...(c.uuid ? { uuid: c.uuid } : {}), label: c.label })),
    })),
  };
}

/** Moves an item of a list one place up (-1) or down (+1). */
export function moved<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= items.length) return [...items];
  const copy = [...items];
  [copy[index], copy[target]] = [copy[target]!, copy[index]!];
  return copy;
}

/** The French messages of a refused body, by path (`title`, `questions.0.label`…). */
export function errorsOf(draft: SurveyDraft): Record<string, string> {
  const parsed = SurveyBodySchema.safeParse(bodyOf(draft));
  if (parsed.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

type Props = {
  survey: Survey | null;
  onSave: (body: ReturnType<typeof bodyOf>) => Promise<void>;
  onCancel: () => void;
};

/** A survey's draft: title, introduction, and its questions (free text, single or multiple choice), required or not, in order. */
export function SurveyEditor({ survey, onSave, onCancel }: Props) {
  const [draft, setDraft] = useState<SurveyDraft>(() => draftOf(survey));
  // Once a save was tried, the draft's errors follow its edits (a fixed field loses its message at once).
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const errors = tried ? { ...serverErrors, ...errorsOf(draft) } : serverErrors;
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const setQuestion = (index: number, change: Partial<DraftQuestion>) =>
    setDraft((d) => ({ ...d, questions: d.questions.map((q, i) => (i === index ? { ...q, ...change } : q)) }));
  const setKind = (index: number, kind: SurveyQuestionKind) => {
    const question = draft.questions[index]!;
    setQuestion(index, { kind, choices: kind === 'text' ? [] : question.choices.length >= 2 ? question.choices : blankChoices() });
  };

  const save = async () => {
    const found = errorsOf(draft);
    setTried(true);
    setServerErrors({});
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      await onSave(bodyOf(draft));
    } catch (error) {
      if (error instanceof ApiError && error.details.length > 0) setServerErrors(Object.fromEntries(error.details.map((d) => [d.path, d.message])));
      setFailure(error instanceof ApiError && error.status !== 0 ? error.message : 'Le questionnaire n’a pas pu être enregistré. Réessayez.');
    } finally {
      setSaving(false);
    }
  };

  const hasErrors = Object.keys(errors).length > 0;
  return (
    <Box component="form" noValidate onSubmit={(e) => (e.preventDefault(), void save())} sx={{ display: 'grid', gap: 2.5 }}>
      <TextField
        label="Titre"
        required
        value={draft.title}
        onChange={(e) => setDraft((d) => ({ ...d, title: e.target.value }))}
        error={Boolean(errors.title)}
        helperText={errors.title}
        slotProps={{ htmlInput: { maxLength: SURVEY_TITLE_MAX } }}
      />
      <TextField
        label="Introduction"
        multiline
        minRows={2}
        value={draft.introduction}
        onChange={(e) => setDraft((d) => ({ ...d, introduction: e.target.value }))}
        error={Boolean(errors.introduction)}
        helperText={errors.introduction ?? 'Quelques mots affichés en tête du questionnaire et dans l’e-mail.'}
        slotProps={{ htmlInput: { maxLength: SURVEY_INTRODUCTION_MAX } }}
      />
      <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Questions
      </Typography>
      {errors.questions && <Alert severity="error">{errors.questions}</Alert>}
      {draft.questions.map((question, index) => {
        const prefix = `questions.${index}`;
        const name = `Question ${index + 1}`;
        return (
          <Card key={question.key} variant="outlined" component="fieldset" sx={{ p: 2, m: 0, display: 'grid', gap: 2, minWidth: 0 }}>
            <Box component="legend" sx={{ px: 0.5, fontWeight: 600 }}>
              {name}
            </Box>
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between' }}>
              <TextField select size="small" label="Type" value={question.kind} onChange={(e) => setKind(index, e.target.value as SurveyQuestionKind)} sx={{ minWidth: 180 }}>
                {SURVEY_QUESTION_KINDS.map((kind) => (
                  <MenuItem key={kind} value={kind}>
                    {SURVEY_QUESTION_KIND_LABELS[kind]}
                  </MenuItem>
                ))}
              </TextField>
              <Box sx={{ display: 'flex', alignItems: 'center' }}>
                <FormControlLabel control={<Switch checked={question.required} onChange={(e) => setQuestion(index, { required: e.target.checked })} />} label="Obligatoire" />
                <Tooltip title="Monter">
                  <span>
                    <IconButton aria-label={`Monter la question ${index + 1}`} disabled={index === 0} onClick={() => setDraft((d) => ({ ...d, questions: moved(d.questions, index, -1) }))}>
                      <ArrowUpward />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Descendre">
                  <span>
                    <IconButton
                      aria-label={`Descendre la question ${index + 1}`}
                      disabled={index === draft.questions.length - 1}
                      onClick={() => setDraft((d) => ({ ...d, questions: moved(d.questions, index, 1) }))}
                    >
                      <ArrowDownward />
                    </IconButton>
                  </span>
                </Tooltip>
                <Tooltip title="Supprimer">
                  <span>
                    <IconButton
                      aria-label={`Supprimer la question ${index + 1}`}
                      disabled={draft.questions.length === 1}
                      onClick={() => setDraft((d) => ({ ...d, questions: d.questions.filter((_, i) => i !== index) }))}
                    >
                      <DeleteOutlined />
                    </IconButton>
                  </span>
                </Tooltip>
              </Box>
            </Box>
            <TextField
              label="Intitulé de la question"
              required
              value={question.label}
              onChange={(e) => setQuestion(index, { label: e.target.value })}
              error={Boolean(errors[`${prefix}.label`])}
              helperText={errors[`${prefix}.label`]}
              slotProps={{ htmlInput: { maxLength: SURVEY_QUESTION_MAX } }}
            />
            {question.kind !== 'text' && (
              <Box sx={{ display: 'grid', gap: 1.5, pl: { sm: 2 } }}>
                {question.choices.map((choice, c) => (
                  <Box key={choice.key} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
                    <TextField
                      size="small"
                      fullWidth
                      label={`Choix ${c + 1}`}
                      value={choice.label}
                      onChange={(e) => setQuestion(index, { choices: question.choices.map((x, i) => (i === c ? { ...x, label: e.target.value } : x)) })}
                      error={Boolean(errors[`${prefix}.choices.${c}.label`])}
                      helperText={errors[`${prefix}.choices.${c}.label`]}
                      slotProps={{ htmlInput: { maxLength: SURVEY_CHOICE_MAX, 'aria-label': `${name}, choix ${c + 1}` } }}
                    />
                    <IconButton
                      aria-label={`Retirer le choix ${c + 1} de la question ${index + 1}`}
                      disabled={question.choices.length <= 2}
                      onClick={() => setQuestion(index, { choices: question.choices.filter((_, i) => i !== c) })}
                    >
                      <DeleteOutlined />
                    </IconButton>
                  </Box>
                ))}
                {errors[`${prefix}.choices`] && (
                  <Typography color="error" variant="body2">
                    {errors[`${prefix}.choices`]}
                  </Typography>
                )}
                <Button startIcon={<Add />} sx={{ justifySelf: 'start' }} onClick={() => setQuestion(index, { choices: [...question.choices, { key: key(), label: '' }] })}>
                  Ajouter un choix
                </Button>
              </Box>
            )}
          </Card>
        );
      })}
      <Button startIcon={<Add />} variant="outlined" sx={{ justifySelf: 'start' }} onClick={() => setDraft((d) => ({ ...d, questions: [...d.questions, newQuestion()] }))}>
        Ajouter une question
      </Button>
      {hasErrors && !failure && <Alert severity="error">Le questionnaire n’est pas complet : voyez les champs signalés.</Alert>}
      {failure && <Alert severity="error">{failure}</Alert>}
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap-reverse', justifyContent: 'flex-end' }}>
        <Button onClick={onCancel}>Annuler</Button>
        <Button type="submit" variant="contained" loading={saving}>
          Enregistrer le brouillon
        </Button>
      </Box>
    </Box>
  );
}
