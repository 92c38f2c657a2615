import {
  type BrokerOrganization,
  type BrokerOrganizationPage,
  BROKER_SORT_COLUMNS,
  type BrokerSortColumn,
  centsToEuros,
  type CreateBrokerOrganizationBodySchema,
  type Organization,
  todayIso,
} from '@flotte/contract';
import type { z } from 'zod';
import type { Database } from '../../db/client.js';
import type { ExportColumn } from '../../db/list-kit.js';
import { readSystem, type ReadTx, withSystem } from '../../db/scope.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';
import { type AuthContext, isRoot, isSuperadmin, managesEnvironment } from '../../lib/auth-context.js';
import { offsetOf, toPage } from '../../lib/pagination.js';
import type { ExportedFile } from '../../lib/register-export.js';
import { CONTENT_TYPES, csvStream, type ExportFormat, exportFileName, xlsxStream } from '../../lib/spreadsheet-export.js';
import { frequencyPercent, lossRatioPercent, regularisationCents } from '../dashboard/dashboard.service.js';
import type { InvitationsService } from '../organizations/invitations.service.js';
import * as organizations from '../organizations/organizations.service.js';
import * as repo from './broker.repository.js';

const FORBIDDEN = 'Réservé aux superadmins de l’environnement et aux administrateurs de la plateforme';
const UNKNOWN_ENVIRONMENT = 'Environnement introuvable';

type EnvironmentChoice = { environment?: string | undefined };

/**
 * The environment the caller works on: the one asked, if the caller manages it (a superadmin of
 * another environment gets 404, as for an unknown one); else the only one a superadmin is attached
 * to. Plain users and ADMINs: 403. Checked in system scope before any figure is read.
 */
async function resolveEnvironment(tx: ReadTx, ctx: AuthContext, query: EnvironmentChoice) {
  if (!isSuperadmin(ctx) && !isRoot(ctx)) throw new ForbiddenError(FORBIDDEN);
  let environmentUuid = query.environment;
  if (!environmentUuid) {
    const managed = ctx.environmentUuids.filter((uuid) => managesEnvironment(ctx, uuid));
    if (managed.length === 0) throw new NotFoundError("Vous n'êtes rattaché à aucun environnement");
    if (managed.length > 1) {
      const message = 'Précisez l’environnement (paramètre « environment »)';
      throw new BadRequestError(message, [{ path: 'environment', message }]);
    }
    environmentUuid = managed[0]!;
  }
  if (!managesEnvironment(ctx, environmentUuid)) throw new NotFoundError(UNKNOWN_ENVIRONMENT);
  const environment = await repo.findEnvironment(tx, environmentUuid);
  if (!environment) throw new NotFoundError(UNKNOWN_ENVIRONMENT);
  return environment;
}

function parseSort(sortBy: string | undefined): repo.BrokerQuery['sort'] {
  if (!sortBy) return { column: 'title', descending: false };
  const descending = sortBy.startsWith('-');
  const column = (descending ? sortBy.slice(1) : sortBy) as BrokerSortColumn;
  if (!(BROKER_SORT_COLUMNS as readonly string[]).includes(column)) return { column: 'title', descending: false };
  return { column, descending };
}

/** One row as the contract says, the figures by the dashboard's own formulas. */
export function toBrokerOrganization(row: repo.BrokerRow): BrokerOrganization {
  const hasPeriod = row.period_uuid !== null;
  const n0 = row.motors_count ?? 0;
  const regularisation = hasPeriod ? regularisationCents(n0, row.n1 ?? 0, Number(row.cash_received_cents)) : null;
  return {
    uuid: row.uuid,
    title: row.title,
    avatar: row.avatar_url ? { url: row.avatar_url } : null,
    vehicles: row.vehicles,
    claimsThisYear: row.claims_this_year,
    period: hasPeriod ? { uuid: row.period_uuid!, startDate: row.period_start!, endDate: row.period_end! } : null,
    lossRatio: hasPeriod ? lossRatioPercent(Number(row.cost_cents), Number(row.earned_cents)) : null,
    lossRatioLimit: row.loss_ratio_limit,
    claimFrequency: hasPeriod ? frequencyPercent(row.period_claims ?? 0, n0) : null,
    claimFrequencyLimit: row.claim_frequency_limit,
    halfDifference: hasPeriod ? ((row.n1 ?? 0) - n0) / 2 : null,
    regularisation: regularisation === null ? null : centsToEuros(regularisation),
    nextRenewal: row.next_renewal,
    lastActivity: row.last_activity,
  };
}

type ListQuery = EnvironmentChoice & { page: number; limit: number; search?: string | undefined; sortBy?: string | undefined };

export async function list(db: Database, ctx: AuthContext, query: ListQuery, today = todayIso()): Promise<BrokerOrganizationPage> {
  return readSystem(db, async (tx) => {
    const environment = await resolveEnvironment(tx, ctx, query);
    const rows = await repo.listOrganizations(tx, {
      environmentUuid: environment.uuid,
      today,
      search: query.search,
      sort: parseSort(query.sortBy),
      page: { limit: query.limit, offset: offsetOf(query.page, query.limit) },
    });
    // A page past the last one has no row to carry the total: count it apart (rare).
    const total = rows[0]?.total ?? (query.page > 1 ? await repo.countOrganizations(tx, environment.uuid, query.search) : 0);
    return { ...toPage(rows.map(toBrokerOrganization), total, query.page, query.limit), environment };
  });
}

const percent = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** The export's columns: the table's, in its order, figures as the screen rounds them. */
export const EXPORT_COLUMNS: readonly ExportColumn<BrokerOrganization>[] = [
  { header: 'Organisation', type: 'text', value: (r) => r.title, width: 36 },
  { header: 'Véhicules', type: 'number', value: (r) => r.vehicles },
  { header: 'Sinistres de l’année', type: 'number', value: (r) => r.claimsThisYear },
  { header: 'Début de période', type: 'date', value: (r) => r.period?.startDate },
  { header: 'Fin de période', type: 'date', value: (r) => r.period?.endDate },
  { header: 'S/P (%)', type: 'number', value: (r) => percent(r.lossRatio) },
  { header: 'Limite S/P (%)', type: 'number', value: (r) => r.lossRatioLimit },
  { header: 'Fréquence (%)', type: 'number', value: (r) => percent(r.claimFrequency) },
  { header: 'Limite fréquence (%)', type: 'number', value: (r) => r.claimFrequencyLimit },
  { header: 'Demi-différence (véhicules)', type: 'number', value: (r) => r.halfDifference },
  { header: 'Régularisation', type: 'euros', value: (r) => r.regularisation },
  { header: 'Échéance', type: 'date', value: (r) => r.nextRenewal },
  { header: 'Dernière activité', type: 'date', value: (r) => r.lastActivity?.slice(0, 10) },
];

/** Every organization of the view (search and sort; no paging) as CSV or XLSX. Read whole first: 500 rows are small. */
export async function exportOrganizations(
  db: Database,
  ctx: AuthContext,
  query: Omit<ListQuery, 'page' | 'limit'> & { format: ExportFormat },
  today = todayIso(),
): Promise<ExportedFile> {
  const rows = await readSystem(db, async (tx) => {
    const environment = await resolveEnvironment(tx, ctx, query);
    return repo.listOrganizations(tx, { environmentUuid: environment.uuid, today, search: query.search, sort: parseSort(query.sortBy), page: null });
  });
  async function* batches() {
    yield rows.map(toBrokerOrganization);
  }
  const stream = query.format === 'csv' ? csvStream(EXPORT_COLUMNS, batches()) : xlsxStream(EXPORT_COLUMNS, batches(), 'Organisations');
  return { fileName: exportFileName('organisations', today, query.format), contentType: CONTENT_TYPES[query.format], stream };
}

/**
 * A new organization in the environment, and the invitation of its first ADMIN when an address is
 * given (its e-mail queued in the same transaction: both or neither). The logo comes after, as a
 * file (POST /api/organization/{uuid}/logo).
 */
export async function create(
  db: Database,
  ctx: AuthContext,
  body: z.output<typeof CreateBrokerOrganizationBodySchema>,
  firstAdmin?: { invitations: Pick<InvitationsService, 'inviteIntoNew'>; baseUrl: string },
): Promise<Organization> {
  return withSystem(db, async (tx) => {
    const environment = await resolveEnvironment(tx, ctx, body);
    const uuid = await organizations.createOrganization(tx, { title: body.title, environmentUuid: environment.uuid });
    if (body.adminEmail && firstAdmin) await firstAdmin.invitations.inviteIntoNew(tx, ctx, uuid, { email: body.adminEmail, role: 'ADMIN' }, firstAdmin.baseUrl);
    return { uuid, title: body.title, avatar: null, environment: { uuid: environment.uuid, title: environment.title }, subscription: null };
  });
}
