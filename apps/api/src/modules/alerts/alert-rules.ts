import { uuidList } from '../../db/uuid-list.js';
import {
  ALERT_RULES,
  type AlertSeverity,
  type AutomaticAlertRule,
  DOCUMENT_EXPIRY_NOTICE_DAYS,
  formatPlate,
  limitStatus,
  todayIso,
} from '@flotte/contract';
import { sql, type SQL } from 'drizzle-orm';
import type { ReadTx, WriteTx } from '../../db/scope.js';
import { addMonths, currentPeriodFigures } from '../dashboard/dashboard.service.js';

/**
 * The product's own prevention alerts (issue 16, DOMAIN.md "Limits management", decision 037): what
 * stands today in one organization, each cause with a stable key. `evaluateOrganization` makes the
 * organization's open automatic alerts exactly these causes: a new cause is raised, a closed one
 * that came back is reopened (unread again), a cause gone is closed. Run in the organization's
 * tenant transaction, under its row-level security.
 */

export type Cause = {
  causeKey: string;
  rule: AutomaticAlertRule;
  severity: AlertSeverity;
  title: string;
  body: string;
  linkHref: string | null;
  linkLabel: string | null;
};

/** Claims a per-claim rule raises at most per organization (the most recent): an alert list, not a register. */
export const MAX_CLAIM_ALERTS_PER_RULE = 50;

async function rowsOf<T>(tx: ReadTx, query: SQL): Promise<T[]> {
  return ((await tx.execute(query)) as unknown as { rows: T[] }).rows;
}

const frenchDate = (iso: string) => iso.split('-').reverse().join('/');
const percent = (value: number) => `${value.toLocaleString('fr-FR', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;
const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function sinistersLink(params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  return `/sinisters?${query.toString()}`;
}

/** A claim as the alert names it: « du 12/03/2026 (AB-123-CD) ». */
const claimWords = (c: { sinister_date: string; immatriculation: string | null; ref: string | null }) =>
  `du ${frenchDate(c.sinister_date)}${c.immatriculation ? ` (${formatPlate(c.immatriculation)})` : ''}${c.ref ? `, réf. ${c.ref}` : ''}`;

/** S/P and frequency of the current period against the organization's limits (the dashboard's figures, decisions 022 and 029). */
async function limitCauses(tx: ReadTx, today: string): Promise<Cause[]> {
  const figures = await currentPeriodFigures(tx, today);
  if (!figures) return [];
  const { lossRatio: ratio, frequency, lossRatioLimit: lossLimit, frequencyLimit } = figures;
  const period = { uuid: figures.periodUuid, startDate: figures.startDate, endDate: figures.endDate };
  const endDate = figures.countedUntil;
  const claims = { claims: figures.claims, motors_count: figures.motors };
  const periodWords = `la période du ${frenchDate(period.startDate)} au ${frenchDate(period.endDate)}`;
  const link = sinistersLink({ startDate: period.startDate, endDate });
  const causes: Cause[] = [];
  const lossStatus = limitStatus(ratio, lossLimit);
  if (ratio !== null && (lossStatus === 'above' || lossStatus === 'near')) {
    const above = lossStatus === 'above';
    causes.push({
      causeKey: `${above ? 'loss-ratio-above' : 'loss-ratio-near'}:${period.uuid}`,
      rule: above ? 'lossRatioAbove' : 'lossRatioNear',
      severity: above ? 'urgent' : 'attention',
      title: above ? 'S/P au-dessus de la limite' : 'S/P proche de la limite',
      body: `Le S/P de ${periodWords} est de ${percent(ratio)} à ce jour, pour une limite de ${lossLimit} % (${above ? 'limite dépassée' : `à moins de 10 points de la limite`}).`,
      linkHref: link,
      linkLabel: 'Voir les sinistres de la période',
    });
  }
  const frequencyStatus = limitStatus(frequency, frequencyLimit);
  if (frequency !== null && (frequencyStatus === 'above' || frequencyStatus === 'near')) {
    const above = frequencyStatus === 'above';
    causes.push({
      causeKey: `${above ? 'frequency-above' : 'frequency-near'}:${period.uuid}`,
      rule: above ? 'frequencyAbove' : 'frequencyNear',
      severity: above ? 'urgent' : 'attention',
      title: above ? 'Fréquence au-dessus de la limite' : 'Fréquence proche de la limite',
      body: `La fréquence des sinistres de ${periodWords} est de ${percent(frequency)} (${claims.claims} sinistre${claims.claims > 1 ? 's' : ''} pour ${claims.motors_count} véhicule${claims.motors_count > 1 ? 's' : ''}), pour une limite de ${frequencyLimit} % (${above ? 'limite dépassée' : 'à moins de 10 points de la limite'}).`,
      linkHref: link,
      linkLabel: 'Voir les sinistres de la période',
    });
  }
  return causes;
}

/** A driver with ALERT_RULES.atFaultClaims claims or more at fault (any share) within the last 12 months. */
async function driverCauses(tx: ReadTx, today: string): Promise<Cause[]> {
  const since = addDays(addMonths(today, -ALERT_RULES.atFaultMonths), 1);
  const rows = await rowsOf<{ uuid: string; first_name: string; last_name: string; claims: number }>(
    tx,
    sql`select d.uuid, d.first_name, d.last_name, count(*)::int as claims
        from sinisters s join drivers d on d.uuid = s.driver_uuid
        where s.archived_at is null and s.responsibility_rate > 0
          and s.sinister_date between ${since}::date and ${today}::date
        group by d.uuid, d.first_name, d.last_name
        having count(*) >= ${ALERT_RULES.atFaultClaims}
        order by count(*) desc, d.last_name, d.first_name`,
  );
  return rows.map((driver) => ({
    causeKey: `driver-at-fault:${driver.uuid}`,
    rule: 'driverAtFault',
    severity: 'attention',
    title: `${driver.first_name} ${driver.last_name} : ${driver.claims} sinistres responsables en 12 mois`,
    body: `${driver.first_name} ${driver.last_name} est responsable (en tout ou partie) de ${driver.claims} sinistres depuis le ${frenchDate(since)}. Un entretien de prévention ou une formation à la conduite peut éviter le suivant.`,
    linkHref: sinistersLink({ driver: driver.uuid, responsible: 'me', startDate: since, endDate: today }),
    linkLabel: 'Voir ses sinistres',
  }));
}

/** ALERT_RULES.glassClaims glass-breakage claims or more within the last 6 months. */
async function glassCauses(tx: ReadTx, today: string): Promise<Cause[]> {
  const since = addDays(addMonths(today, -ALERT_RULES.glassMonths), 1);
  const [row] = await rowsOf<{ guarantee_uuid: string; claims: number }>(
    tx,
    sql`select g.uuid as guarantee_uuid, count(*)::int as claims
        from sinisters s join guarantees g on g.uuid = s.guarantee_uuid
        where s.archived_at is null and g.label = 'Bris de glace'
          and s.sinister_date between ${since}::date and ${today}::date
        group by g.uuid having count(*) >= ${ALERT_RULES.glassClaims}`,
  );
  if (!row) return [];
  return [
    {
      causeKey: 'glass-breakage',
      rule: 'glassBreakage',
      severity: 'attention',
      title: `${row.claims} bris de glace en 6 mois`,
      body: `${row.claims} sinistres « Bris de glace » depuis le ${frenchDate(since)}. Vérifiez les trajets (chantiers, gravillons) et l'équipement des véhicules concernés.`,
      linkHref: sinistersLink({ garantee: row.guarantee_uuid, startDate: since, endDate: today }),
      linkLabel: 'Voir les bris de glace',
    },
  ];
}

type ClaimRow = { uuid: string; sinister_date: string; immatriculation: string | null; ref: string | null };

/** Open claims (open or in progress, not archived) of a rule: the most recent MAX_CLAIM_ALERTS_PER_RULE. */
function openClaims(tx: ReadTx, where: SQL): Promise<ClaimRow[]> {
  return rowsOf<ClaimRow>(
    tx,
    sql`select s.uuid, s.sinister_date::text as sinister_date, s.immatriculation, s.sinister_intermediate_ref as ref
        from sinisters s
        where s.archived_at is null and s.status in ('open', 'inProgress') and ${where}
        order by s.sinister_date desc, s.uuid limit ${MAX_CLAIM_ALERTS_PER_RULE}`,
  );
}

/** One claim in the register: its day, narrowed by its plate (or reference) when it has one. */
const claimLink = (c: ClaimRow, extra: Record<string, string> = {}) =>
  sinistersLink({ ...extra, startDate: c.sinister_date, endDate: c.sinister_date, search: c.ref ?? c.immatriculation });

async function claimCauses(tx: ReadTx, today: string): Promise<Cause[]> {
  const yearAgo = addDays(addMonths(today, -12), 1);
  const injuries = await openClaims(tx, sql`s.has_human_injury and s.sinister_date >= ${yearAgo}::date`);
  const notDeclared = await openClaims(tx, sql`not s.is_declared and s.sinister_date <= ${addDays(today, -ALERT_RULES.notDeclaredDays)}::date`);
  const unchanged = await openClaims(tx, sql`s.updated_at < now() - make_interval(days => ${ALERT_RULES.unchangedDays})`);
  return [
    ...injuries.map((c): Cause => ({
      causeKey: `bodily-injury:${c.uuid}`,
      rule: 'bodilyInjury',
      severity: 'urgent',
      title: `Sinistre corporel ${claimWords(c)}`,
      body: `Le sinistre ${claimWords(c)} a fait au moins un blessé. Assurez-vous que le conducteur et les victimes sont suivis, et que l'assureur a tous les éléments.`,
      linkHref: claimLink(c, { hasHumanInjury: 'true' }),
      linkLabel: 'Voir le sinistre',
    })),
    ...notDeclared.map((c): Cause => ({
      causeKey: `not-declared:${c.uuid}`,
      rule: 'notDeclared',
      severity: 'attention',
      title: `Sinistre non déclaré ${claimWords(c)}`,
      body: `Le sinistre ${claimWords(c)} n'est toujours pas déclaré à l'assureur, ${ALERT_RULES.notDeclaredDays} jours ou plus après sa date. Déclarez-le, ou indiquez qu'il l'a été.`,
      linkHref: claimLink(c, { showNotDeclared: 'true' }),
      linkLabel: 'Voir le sinistre',
    })),
    ...unchanged.map((c): Cause => ({
      causeKey: `unchanged:${c.uuid}`,
      rule: 'unchanged',
      severity: 'information',
      title: `Sinistre sans évolution ${claimWords(c)}`,
      body: `Le sinistre ${claimWords(c)} est ouvert et n'a pas été modifié depuis ${ALERT_RULES.unchangedDays} jours. Faites le point avec l'assureur ou clôturez-le.`,
      linkHref: claimLink(c),
      linkLabel: 'Voir le sinistre',
    })),
  ];
}

/** Live documents expired or expiring within DOCUMENT_EXPIRY_NOTICE_DAYS (the documents feature, decision 030). */
async function documentCauses(tx: ReadTx, today: string): Promise<Cause[]> {
  const rows = await rowsOf<{ uuid: string; name: string; parent_uuid: string | null; expires_on: string }>(
    tx,
    sql`select d.uuid, d.name, d.parent_uuid, d.expires_on::text as expires_on from documents d
        where d.deleted_at is null and d.kind = 'file' and d.expires_on is not null and d.expires_on <= ${addDays(today, DOCUMENT_EXPIRY_NOTICE_DAYS)}::date
        order by d.expires_on, d.uuid limit ${MAX_CLAIM_ALERTS_PER_RULE}`,
  );
  return rows.map((doc) => {
    const expired = doc.expires_on < today;
    const query = new URLSearchParams({ ...(doc.parent_uuid ? { parent: doc.parent_uuid } : {}), search: doc.name });
    return {
      causeKey: `document-expiry:${doc.uuid}:${doc.expires_on}`,
      rule: 'documentExpiry',
      severity: expired ? 'urgent' : 'attention',
      title: `${doc.name} : ${expired ? 'document expiré' : 'document à renouveler'}`,
      body: expired
        ? `Le document « ${doc.name} » a expiré le ${frenchDate(doc.expires_on)}. Déposez sa nouvelle version et sa date d'expiration.`
        : `Le document « ${doc.name} » expire le ${frenchDate(doc.expires_on)}. Pensez à le renouveler avant cette date.`,
      linkHref: `/ged?${query.toString()}`,
      linkLabel: 'Voir le document',
    };
  });
}

/** Every cause standing today in the transaction's organization. */
export async function currentCauses(tx: ReadTx, today: string = todayIso()): Promise<Cause[]> {
  return [
    ...(await limitCauses(tx, today)),
    ...(await driverCauses(tx, today)),
    ...(await glassCauses(tx, today)),
    ...(await claimCauses(tx, today)),
    ...(await documentCauses(tx, today)),
  ];
}

export type EvaluationReport = { raised: number; reopened: number; closed: number };

/**
 * Brings the organization's automatic alerts in line with its causes today (tenant transaction).
 * Serialised per organization (an advisory lock): the job after a write and the daily run may meet.
 */
export async function evaluateOrganization(tx: WriteTx, organizationUuid: string, today: string = todayIso()): Promise<EvaluationReport> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'alerts:' + organizationUuid}, 0))`);
  const causes = await currentCauses(tx, today);
  const existing = await rowsOf<{
    uuid: string;
    cause_key: string;
    closed: boolean;
    severity: string;
    title: string;
    body: string;
    link_href: string | null;
    link_label: string | null;
  }>(
    tx,
    sql`select uuid, cause_key, closed_at is not null as closed, severity, title, body, link_href, link_label
        from organization_alerts where source = 'automatic'`,
  );
  const byKey = new Map(existing.map((row) => [row.cause_key, row]));
  const report: EvaluationReport = { raised: 0, reopened: 0, closed: 0 };
  for (const cause of causes) {
    const known = byKey.get(cause.causeKey);
    if (!known) {
      await tx.execute(
        sql`insert into organization_alerts (organization_uuid, source, rule, cause_key, severity, title, body, link_href, link_label)
            values (${organizationUuid}, 'automatic', ${cause.rule}, ${cause.causeKey}, ${cause.severity}, ${cause.title}, ${cause.body}, ${cause.linkHref}, ${cause.linkLabel})
            on conflict (organization_uuid, cause_key) do nothing`,
      );
      report.raised += 1;
      continue;
    }
    // Still standing: the words follow the figures (an S/P moves every day) without raising it
    // again. Unchanged and open, nothing to write: most evaluations change nothing, and each
    // statement of this transaction holds the embedded database's one thread (issue 22).
    const same =
      known.severity === cause.severity &&
      known.title === cause.title &&
      known.body === cause.body &&
      known.link_href === cause.linkHref &&
      known.link_label === cause.linkLabel;
    if (same && !known.closed) continue;
    await tx.execute(
      sql`update organization_alerts set severity = ${cause.severity}, title = ${cause.title}, body = ${cause.body},
            link_href = ${cause.linkHref}, link_label = ${cause.linkLabel}
            ${known.closed ? sql`, closed_at = null, published_at = now(), digested_at = null` : sql``}
          where uuid = ${known.uuid}`,
    );
    if (known.closed) {
      // Back after it went: a new occurrence, unread again.
      await tx.execute(sql`delete from alert_reads where alert_uuid = ${known.uuid}`);
      report.reopened += 1;
    }
  }
  const standing = new Set(causes.map((cause) => cause.causeKey));
  const gone = existing.filter((row) => !row.closed && !standing.has(row.cause_key)).map((row) => row.uuid);
  if (gone.length > 0) {
    await tx.execute(sql`update organization_alerts set closed_at = now() where uuid in (${uuidList(gone)})`);
    report.closed = gone.length;
  }
  return report;
}
