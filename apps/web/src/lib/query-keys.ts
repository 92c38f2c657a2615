import type { QueryClient } from '@tanstack/react-query';

// Every TanStack Query key of the app's registers lives here, with what a write makes stale.
// Features do not import each other (lint boundary): this registry is what they share, so the
// claim form's vehicle choices (sinisters feature) are refreshed by a vehicle write (vehicules
// feature) without either knowing the other.

/** The keys of one register: everything under `all`, so one invalidation reaches them all. */
function registerKeys<TName extends string>(name: TName) {
  const all = [name] as const;
  return {
    all,
    /** Pages of the register's screen, one per URL state. */
    lists: () => [...all, 'list'] as const,
    list: (query: object) => [...all, 'list', query] as const,
    /**
     * The records another register's form offers (components/record-picker): one page of light
     * choices per query (the first CHOICES_LIMIT, or those a search finds).
     */
    choices: (query: object) => [...all, 'choices', query] as const,
    /** A count of the records matching a filter, e.g. the claims of a vehicle about to be deleted. */
    count: (query: object) => [...all, 'count', query] as const,
    detail: (uuid: string) => [...all, 'detail', uuid] as const,
  };
}

export const queryKeys = {
  drivers: registerKeys('drivers'),
  vehicules: registerKeys('vehicules'),
  sinisters: registerKeys('sinisters'),
  /** A reference list only ROOT edits. */
  guarantees: ['guarantees'] as const,
  /** The insurance periods (features/indicators). A write to them also makes `dashboard` stale. */
  indicators: { all: ['indicators'] as const, list: () => ['indicators', 'list'] as const, current: () => ['indicators', 'current'] as const },
  /**
   * Every dashboard figure (loss ratio, frequency, half-differences, breakdowns, limits): keep each
   * under this prefix, so that a write to the periods or the limits refreshes them all.
   */
  /** The organization's spreadsheet imports (features/imports): /parameters' history. */
  imports: { all: ['imports'] as const, list: () => ['imports', 'list'] as const },
  /**
   * The document management (components/documents, features/documents and media): folders' pages,
   * breadcrumbs, the trash, what expires, a record's attachments. A write to any of them may change
   * a register's `documents` field, so it also makes the three registers stale (invalidateDocuments).
   */
  documents: {
    all: ['documents'] as const,
    page: (query: object) => ['documents', 'page', query] as const,
    ancestors: (parent: string) => ['documents', 'ancestors', parent] as const,
    trash: (query: object) => ['documents', 'trash', query] as const,
    expiring: (query: object) => ['documents', 'expiring', query] as const,
    attachments: (entity: string, uuid: string) => ['documents', 'attachments', entity, uuid] as const,
  },
  /** The operator's spaces (features/root): one page per query, and each space's tiers. */
  root: { all: ['root'] as const, spaces: (query: object) => ['root', 'spaces', query] as const, tiers: (environment: string) => ['root', 'tiers', environment] as const },
  /** The current organization's plan (features/billing): read by the sidebar's locks and the plans pages alike. */
  currentPlan: (organizationUuid: string) => ['billing', 'current-plan', organizationUuid] as const,
  /** The broker's table of its client organizations (features/broker), one page per query. */
  broker: { all: ['broker'] as const, organizations: (query: object) => ['broker', 'organizations', query] as const },
  dashboard: {
    all: ['dashboard'] as const,
    config: () => ['dashboard', 'config'] as const,
    /** One figure (`loss-ratio`, `claims-by-month`…) for one query (window, declared filter). */
    figure: (name: string, query: object = {}) => ['dashboard', 'figure', name, query] as const,
  },
};

export type RegisterName = 'drivers' | 'vehicules' | 'sinisters';

/**
 * The registers whose records show another register's: a claim shows its vehicle's plate and its
 * driver's name, and a permanent deletion of either leaves its claims without the link.
 */
const SHOWN_IN: Readonly<Record<RegisterName, readonly RegisterName[]>> = {
  drivers: ['sinisters'],
  vehicules: ['sinisters'],
  sinisters: [],
};

/**
 * After any write to `register`: its lists, option lists, counts and details, and those of the
 * registers that show its records, are stale. Active queries refetch at once, the others when
 * next shown. Not awaited by the mutations: the snackbar need not wait for the list.
 */
export function invalidateAfterWrite(queryClient: QueryClient, register: RegisterName): void {
  for (const name of [register, ...SHOWN_IN[register]]) {
    void queryClient.invalidateQueries({ queryKey: queryKeys[name].all });
  }
}
