import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SurveyQuestion } from '@flotte/contract';
import { describe, expect, it, vi } from 'vitest';
import { bodyOf, draftOf, errorsOf, moved, newQuestion } from './survey-editor';
import { answersBody, missingAnswers, serverErrorsByQuestion, SurveyForm } from './survey-form';

const QUESTIONS: SurveyQuestion[] = [
  { uuid: '11111111-1111-4111-8111-111111111111', kind: 'single', label: 'Satisfait ?', required: true, choices: [{ uuid: 'aaaaaaaa-1111-4111-8111-111111111111', label: 'Oui' }, { uuid: 'bbbbbbbb-1111-4111-8111-111111111111', label: 'Non' }] },
  { uuid: '22222222-2222-4222-8222-222222222222', kind: 'multiple', label: 'Services ?', required: false, choices: [{ uuid: 'cccccccc-1111-4111-8111-111111111111', label: 'Sinistres' }, { uuid: 'dddddddd-1111-4111-8111-111111111111', label: 'Documents' }] },
  { uuid: '33333333-3333-4333-8333-333333333333', kind: 'text', label: 'Une idée ?', required: false, choices: [] },
];

describe('survey answers', () => {
  it('sends only the questions given a value, texts trimmed', () => {
    const body = answersBody(QUESTIONS, { [QUESTIONS[0]!.uuid]: { choices: ['aaaaaaaa-1111-4111-8111-111111111111'] }, [QUESTIONS[1]!.uuid]: { choices: [] }, [QUESTIONS[2]!.uuid]: { text: '  Bravo ' } });
    expect(body).toEqual([
      { question: QUESTIONS[0]!.uuid, choices: ['aaaaaaaa-1111-4111-8111-111111111111'] },
      { question: QUESTIONS[2]!.uuid, text: 'Bravo' },
    ]);
    expect(missingAnswers(QUESTIONS, {})).toEqual({ [QUESTIONS[0]!.uuid]: 'Cette question est obligatoire' });
  });

  it('puts the API refusal on its question, by answer or by question index', () => {
    const body = answersBody(QUESTIONS, { [QUESTIONS[2]!.uuid]: { text: 'x' } });
    expect(serverErrorsByQuestion(QUESTIONS, body, [{ path: 'answers.0.text', message: 'Trop long' }, { path: 'questions.0', message: 'Obligatoire' }])).toEqual({
      [QUESTIONS[2]!.uuid]: 'Trop long',
      [QUESTIONS[0]!.uuid]: 'Obligatoire',
    });
  });

  it('renders each question as a fieldset with its legend; a required one left empty is said in French and nothing is sent', async () => {
    const onSubmit = vi.fn().mockResolvedValue(null);
    render(<SurveyForm questions={QUESTIONS} onSubmit={onSubmit} failure={null} />);
    expect(screen.getAllByRole('group').length).toBeGreaterThanOrEqual(3);
    expect(screen.getByRole('group', { name: /Satisfait \?.*obligatoire/ })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer mes réponses' }));
    expect(screen.getByText('Cette question est obligatoire')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.click(screen.getByLabelText('Oui'));
    await userEvent.click(screen.getByLabelText('Documents'));
    await userEvent.click(screen.getByRole('button', { name: 'Envoyer mes réponses' }));
    expect(onSubmit).toHaveBeenCalledWith([
      { question: QUESTIONS[0]!.uuid, choices: ['aaaaaaaa-1111-4111-8111-111111111111'] },
      { question: QUESTIONS[1]!.uuid, choices: ['dddddddd-1111-4111-8111-111111111111'] },
    ]);
  });
});

describe('survey editor', () => {
  it('moves questions up and down, not past the ends', () => {
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  });

  it('keeps the uuids of a saved survey in its body, drops choices of a free text', () => {
    const survey = { uuid: 'x', environmentUuid: 'e', title: 'T', introduction: null, status: 'draft' as const, questionCount: 3, sent: 0, answered: 0, createdAt: '', updatedAt: '', sentAt: null, questions: QUESTIONS };
    const body = bodyOf(draftOf(survey));
    expect(body.questions.map((q) => q.uuid)).toEqual(QUESTIONS.map((q) => q.uuid));
    expect(body.questions[2]!.choices).toEqual([]);
    expect(body.introduction).toBe('');
  });

  it('says in French what is missing, by field path', () => {
    const draft = { title: '', introduction: '', questions: [newQuestion('single')] };
    const errors = errorsOf(draft);
    expect(errors.title).toBe('Le titre est obligatoire');
    expect(errors['questions.0.label']).toBe('La question est obligatoire');
    expect(errors['questions.0.choices.0.label']).toBe('Le choix est obligatoire');
    expect(errors['questions.0.choices']).toBeUndefined();
  });
});
