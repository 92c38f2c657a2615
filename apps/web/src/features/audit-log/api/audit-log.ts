import { AuditActorListSchema, AuditLogPageSchema, type AuditActorList, type AuditEntity, type AuditLogPage } from '@flotte/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

// The « Journal d'activité » of /parameters (decision 041): the current organization's log, for
// its administrators. Written by the database on every write: always read afresh when shown.
const dev = import.meta.env.DEV;

export type AuditLogFilters = { page: number; search: string; entity: AuditEntity | ''; actor: string; from: string; to: string };

export const AUDIT_PAGE_SIZE = 20;

export const auditLogKeys = {
  all: ['audit-log'] as const,
  page: (organizationUuid: string, filters: AuditLogFilters) => [...auditLogKeys.all, 'page', organizationUuid, filters] as const,
  actors: (organizationUuid: string) => [...auditLogKeys.all, 'actors', organizationUuid] as const,
};

/** GET /api/audit-log: one page, newest first, the empty filters left out. */
export function auditLogQueryOptions(organizationUuid: string, filters: AuditLogFilters) {
  const query: Record<string, string | number> = { page: filters.page, limit: AUDIT_PAGE_SIZE };
  for (const name of ['search', 'entity', 'actor', 'from', 'to'] as const) if (filters[name]) query[name] = filters[name];
  return queryOptions({
    queryKey: auditLogKeys.page(organizationUuid, filters),
    queryFn: ({ signal }) => api<AuditLogPage>('/api/audit-log', { query, schema: dev ? AuditLogPageSchema : undefined, signal }),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/audit-log/actors: who wrote, for the « Auteur » filter. */
export function auditActorsQueryOptions(organizationUuid: string) {
  return queryOptions({
    queryKey: auditLogKeys.actors(organizationUuid),
    queryFn: ({ signal }) => api<AuditActorList>('/api/audit-log/actors', { schema: dev ? AuditActorListSchema : undefined, signal }),
    staleTime: 0,
  });
}

export const useAuditLog = (organizationUuid: string, filters: AuditLogFilters, enabled: boolean) => useQuery({ ...auditLogQueryOptions(organizationUuid, filters), enabled });
export const useAuditActors = (organizationUuid: string, enabled: boolean) => useQuery({ ...auditActorsQueryOptions(organizationUuid), enabled });
