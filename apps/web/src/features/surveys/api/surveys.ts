import {
  SendSurveyResultSchema,
  SurveyAudienceListSchema,
  SurveyListSchema,
  SurveyOpenResponseSchema,
  SurveyResultsSchema,
  SurveySchema,
  type SendSurveyBody,
  type SendSurveyResult,
  type Survey,
  type SurveyAnswerBody,
  type SurveyAudienceList,
  type SurveyBody,
  type SurveyList,
  type SurveyOpenResponse,
  type SurveyResults,
} from '@flotte/contract';
import { api } from '../../../lib/api-client';

const dev = import.meta.env.DEV;

/** The broker's surveys (SUPERADMIN, ROOT): the query keys they live under. */
export const surveyKeys = {
  all: ['surveys'] as const,
  list: () => ['surveys', 'list'] as const,
  detail: (uuid: string) => ['surveys', 'detail', uuid] as const,
  audience: (uuid: string) => ['surveys', 'audience', uuid] as const,
  results: (uuid: string, organization: string | null) => ['surveys', 'results', uuid, organization] as const,
};

export const listSurveys = (signal?: AbortSignal) => api<SurveyList>('/api/survey', { signal, schema: dev ? SurveyListSchema : undefined });
export const getSurvey = (uuid: string, signal?: AbortSignal) => api<Survey>(`/api/survey/${uuid}`, { signal, schema: dev ? SurveySchema : undefined });
export const createSurvey = (body: SurveyBody) => api<Survey>('/api/survey', { method: 'POST', body, schema: dev ? SurveySchema : undefined });
export const updateSurvey = (uuid: string, body: SurveyBody) => api<Survey>(`/api/survey/${uuid}`, { method: 'PATCH', body, schema: dev ? SurveySchema : undefined });
export const deleteSurvey = (uuid: string) => api(`/api/survey/${uuid}`, { method: 'DELETE' });
export const surveyAudience = (uuid: string, signal?: AbortSignal) =>
  api<SurveyAudienceList>(`/api/survey/${uuid}/audience`, { signal, schema: dev ? SurveyAudienceListSchema : undefined });
export const sendSurvey = (uuid: string, body: SendSurveyBody) =>
  api<SendSurveyResult>(`/api/survey/${uuid}/send`, { method: 'POST', body, schema: dev ? SendSurveyResultSchema : undefined });
export const surveyResults = (uuid: string, organization: string | null, signal?: AbortSignal) =>
  api<SurveyResults>(`/api/survey/${uuid}/results`, { query: { organization }, signal, schema: dev ? SurveyResultsSchema : undefined });

// The respondent's page: no session; a 401 is never answered, so no refresh either.
export const openSurveyLink = (token: string, signal?: AbortSignal) =>
  api<SurveyOpenResponse>('/api/survey-response/open', { method: 'POST', body: { token }, signal, schema: dev ? SurveyOpenResponseSchema : undefined, retryOnUnauthorized: false });
export const answerSurvey = (body: SurveyAnswerBody) => api('/api/survey-response', { method: 'POST', body, retryOnUnauthorized: false });
