import type { CreateReportBody, Report } from '@flotte/contract';
import type { Database } from '../../db/client.js';
import { withTenant } from '../../db/scope.js';
import { type AuthContext, requireOrganization } from '../../lib/auth-context.js';
import * as repo from './reports.repository.js';

/** A bug report or a suggestion, stored with its author and the current organization. */
export async function createReport(db: Database, ctx: AuthContext, body: CreateReportBody): Promise<Report> {
  const organizationUuid = requireOrganization(ctx);
  const row = await withTenant(db, organizationUuid, (tx) =>
    repo.insertReport(tx, { ...body, organizationUuid, authorUuid: ctx.userUuid }),
  );
  return { uuid: row.uuid, title: row.title, description: row.description, type: row.type, createdAt: row.createdAt.toISOString() };
}

export async function listReports(db: Database, organizationUuid: string) {
  return withTenant(db, organizationUuid, (tx) => repo.listReports(tx));
}
