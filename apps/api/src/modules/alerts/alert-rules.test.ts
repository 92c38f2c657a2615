import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { todayIso } from '@flotte/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indicators } from '../../db/schema/indicators.js';
import { readSystem, readTenant, withTenant } from '../../db/scope.js';
import { attachToEnvironment, createDrivers, createEnvironment, createOrganization, createSinisters, createUser, linkUser } from '../../seed/factories.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';
import { until as waitUntil } from '../../../test/until.js';
import { addMonths, currentPeriodFigures } from '../dashboard/dashboard.service.js';
import { evaluateOrganization } from './alert-rules.js';
import { sendAlertDigests } from './alerts-digest.service.js';

/**
 * The automatic prevention alerts (issue 16, decision 037) on hand-built data: each rule raises
 * its alert once, never twice for the same cause, and closes it when the cause goes; a write
 * queues the evaluation through the job queue; the broker's digest arrives at a real SMTP server.
 */

const TODAY = todayIso();
const daysAgo = (n: number) => new Date(Date.parse(`${TODAY}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

let t: TestContext;
let smtp: TestSmtpServer;
let dataDir: string;
let org: string;
let quiet: string;
let other: string;
let driver: string;
let token: string;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'flotte-alerts-'));
  t = await createTestApp({
    DATA_DIR: dataDir,
    PUBLIC_URL: 'https://flotte.exemple.fr',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'FlotteAssur <no-reply@flotte.exemple.fr>',
    JOBS_WORKER: 'true',
    JOBS_POLL_INTERVAL_SECONDS: '0.5',
  });
  ({ org, quiet, other, driver } = await t.seed(async (tx) => {
    const env = await createEnvironment(tx, { title: 'Cabinet Azur' });
    const elsewhere = await createEnvironment(tx, { title: 'Cabinet Boréal' });
    const o = await createOrganization(tx, { title: 'Transports Alpha', environmentUuid: env.uuid });
    const q = await createOrganization(tx, { title: 'Calme Plat', environmentUuid: env.uuid });
    const x = await createOrganization(tx, { title: 'Ailleurs SA', environmentUuid: elsewhere.uuid });
    const superA = await createUser(tx, { email: 'super@azur.fr', firstName: 'Sophie', roles: ['SUPERADMIN'] });
    const optedOut = await createUser(tx, { email: 'associe@azur.fr', roles: ['SUPERADMIN'] });
    const superB = await createUser(tx, { email: 'super@boreal.fr', roles: ['SUPERADMIN'] });
    const admin = await createUser(tx, { email: 'admin@alpha.fr' });
    await attachToEnvironment(tx, env.uuid, superA.uuid);
    await attachToEnvironment(tx, env.uuid, optedOut.uuid);
    await attachToEnvironment(tx, elsewhere.uuid, superB.uuid);
    await tx.execute(sql`update environment_users set alert_digest = false where user_uuid = ${optedOut.uuid}`);
    await linkUser(tx, o.uuid, admin.uuid, 'ADMIN');
    const [d] = await createDrivers(tx, o.uuid, [{ firstName: 'Jean', lastName: 'Martin' }]);
    return { org: o.uuid, quiet: q.uuid, other: x.uuid, driver: d!.uuid };
  }));
  token = await t.login('admin@alpha.fr');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const evaluate = (organization = org) => withTenant(t.database.db, organization, (tx) => evaluateOrganization(tx, organization));

type Row = { uuid: string; rule: string; cause_key: string; severity: string; title: string; body: string; link_href: string; closed: boolean; published_at: string };
const alertsOf = async (organization = org) =>
  ((await readTenant(t.database.db, organization, (tx) =>
    tx.execute(sql`select uuid, rule, cause_key, severity, title, body, link_href, closed_at is not null as closed, published_at from organization_alerts where source = 'automatic' order by cause_key`),
  )) as unknown as { rows: Row[] }).rows;
const setLimits = (lossRatio: number, frequency: number) =>
  withTenant(t.database.db, org, (tx) =>
    tx.execute(
      sql`insert into dashboard_configs (organization_uuid, loss_ratio_percentage, claim_frequency_percentage) values (${org}, ${lossRatio}, ${frequency})
          on conflict (organization_uuid) do update set loss_ratio_percentage = excluded.loss_ratio_percentage, claim_frequency_percentage = excluded.claim_frequency_percentage`,
    ),
  );
const openOf = async (rule: string, organization = org) => (await alertsOf(organization)).filter((a) => a.rule === rule && !a.closed);

describe('each rule: raised once, closed when the cause goes', () => {
  it('nothing to say about a quiet organization', async () => {
    expect(await evaluate(quiet)).toEqual({ raised: 0, reopened: 0, closed: 0 });
    expect(await alertsOf(quiet)).toEqual([]);
  });

  it('S/P above its limit, then near it, then below', async () => {
    const [period] = await t.seed((tx) =>
      tx.insert(indicators).values({ organizationUuid: org, startDate: daysAgo(100), endDate: addMonths(daysAgo(100), 12), motorsCount: 50, cashReceivedCents: 1_000_000 }).returning(),
    );
    // Earned to date: 10 000 € × 101 days / days of the period; a claim of 5 000 € puts the S/P far above 70 %.
    const [claim] = await t.seed((tx) => createSinisters(tx, org, [{ sinisterDate: daysAgo(3), totalCostCents: 500_000, isDeclared: true, sinisterIntermediateRef: 'SP-1' }]));
    expect((await evaluate()).raised).toBe(1);
    const [above] = await openOf('lossRatioAbove');
    expect(above).toMatchObject({ cause_key: `loss-ratio-above:${period!.uuid}`, severity: 'urgent', title: 'S/P au-dessus de la limite', link_href: `/sinisters?startDate=${period!.startDate}&endDate=${TODAY}` });
    expect(above!.body).toMatch(/^Le S\/P de la période du .+ est de \d+,\d % à ce jour, pour une limite de 70 % \(limite dépassée\)\.$/);
    // Raised once: a second run, and a third, add nothing.
    expect(await evaluate()).toEqual({ raised: 0, reopened: 0, closed: 0 });
    expect(await evaluate()).toEqual({ raised: 0, reopened: 0, closed: 0 });
    expect(await openOf('lossRatioAbove')).toHaveLength(1);
    // Unchanged, a standing alert is not written again (its row version stays); its words follow
    // the figures when they move (a second claim: a higher S/P in its body).
    const version = async () =>
      ((await t.seed((tx) => tx.execute(sql`select xmin::text as v, body from organization_alerts where uuid = ${above!.uuid}`))) as unknown as { rows: { v: string; body: string }[] }).rows[0]!;
    const before = await version();
    await evaluate();
    expect(await version()).toEqual(before);
    const [second] = await t.seed((tx) => createSinisters(tx, org, [{ sinisterDate: daysAgo(2), totalCostCents: 300_000, isDeclared: true, sinisterIntermediateRef: 'SP-2' }]));
    expect(await evaluate()).toEqual({ raised: 0, reopened: 0, closed: 0 });
    const after = await version();
    expect(after.v).not.toBe(before.v);
    expect(after.body).not.toBe(before.body);
    expect(after.body).toMatch(/^Le S\/P de la période du .+ est de \d+,\d % à ce jour/);
    await t.seed((tx) => tx.execute(sql`delete from sinisters where uuid = ${second!.uuid}`));
    await evaluate();
    // The limit moves up: the S/P is now within 10 points of it → "near" raised, "above" closed.
    const ratio = (await readTenant(t.database.db, org, (tx) => currentPeriodFigures(tx)))!.lossRatio!;
    // Written here, not through the API: its write would queue an evaluation that could run in the middle of the next tests.
    await setLimits(Math.ceil(ratio) + 5, 20);
    expect(await evaluate()).toEqual({ raised: 1, reopened: 0, closed: 1 });
    expect(await openOf('lossRatioAbove')).toEqual([]);
    expect(await openOf('lossRatioNear')).toHaveLength(1);
    // The claim is archived: no cost, no alert.
    await t.seed((tx) => tx.execute(sql`update sinisters set archived_at = now() where uuid = ${claim!.uuid}`));
    expect(await evaluate()).toMatchObject({ closed: 1 });
    expect(await openOf('lossRatioNear')).toEqual([]);
    // Back above the limit: the closed alert is reopened, not raised twice.
    await t.seed((tx) => tx.execute(sql`update sinisters set archived_at = null where uuid = ${claim!.uuid}`));
    await setLimits(70, 20);
    expect(await evaluate()).toMatchObject({ raised: 0, reopened: 1 });
    expect((await alertsOf()).filter((a) => a.rule === 'lossRatioAbove')).toHaveLength(1);
    await t.seed((tx) => tx.execute(sql`delete from sinisters where uuid = ${claim!.uuid}`));
    await evaluate();
    expect((await alertsOf()).filter((a) => !a.closed && a.rule.startsWith('loss'))).toEqual([]);
  });

  it('frequency above its limit', async () => {
    // 50 vehicles, limit 20 %: eleven claims in the period make 22 %.
    const claims = await t.seed((tx) =>
      createSinisters(tx, org, Array.from({ length: 11 }, (_, i) => ({ sinisterDate: daysAgo(10 + i), totalCostCents: 0, isDeclared: true, status: 'closed' as const, sinisterIntermediateRef: `F-${i}` }))),
    );
    await evaluate();
    const [frequency] = await openOf('frequencyAbove');
    expect(frequency!.body).toMatch(/est de 22,0 % \(11 sinistres pour 50 véhicules\), pour une limite de 20 %/);
    await t.seed((tx) => tx.execute(sql`update sinisters set archived_at = now() where uuid in (${sql.join(claims.map((c) => sql`${c.uuid}::uuid`), sql`, `)})`));
    await evaluate();
    expect(await openOf('frequencyAbove')).toEqual([]);
  });

  it('a driver with two at-fault claims in 12 months', async () => {
    const [first] = await t.seed((tx) =>
      createSinisters(tx, org, [
        { driverUuid: driver, sinisterDate: daysAgo(200), responsibilityRate: 50, isDeclared: true, status: 'closed', sinisterIntermediateRef: 'D-1' },
        // Not at fault, and one older than 12 months: neither counts.
        { driverUuid: driver, sinisterDate: daysAgo(20), responsibilityRate: 0, isDeclared: true, status: 'closed', sinisterIntermediateRef: 'D-2' },
        { driverUuid: driver, sinisterDate: daysAgo(400), responsibilityRate: 100, isDeclared: true, status: 'closed', sinisterIntermediateRef: 'D-3' },
      ]),
    );
    await evaluate();
    expect(await openOf('driverAtFault')).toEqual([]);
    await t.seed((tx) => createSinisters(tx, org, [{ driverUuid: driver, sinisterDate: daysAgo(5), responsibilityRate: 25, isDeclared: true, status: 'closed', sinisterIntermediateRef: 'D-4' }]));
    expect((await evaluate()).raised).toBe(1);
    const [alert] = await openOf('driverAtFault');
    expect(alert).toMatchObject({ cause_key: `driver-at-fault:${driver}`, title: 'Jean Martin : 2 sinistres responsables en 12 mois' });
    expect(alert!.link_href).toMatch(new RegExp(`^/sinisters\\?driver=${driver}&responsible=me&startDate=\\d{4}-\\d{2}-\\d{2}&endDate=${TODAY}$`));
    expect((await evaluate()).raised).toBe(0);
    await t.seed((tx) => tx.execute(sql`update sinisters set responsibility_rate = 0 where uuid = ${first!.uuid}`));
    await evaluate();
    expect(await openOf('driverAtFault')).toEqual([]);
  });

  it('three glass-breakage claims in 6 months', async () => {
    const glass = await t.seed((tx) =>
      createSinisters(tx, org, [
        { guaranteeLabel: 'Bris de glace', sinisterDate: daysAgo(30), isDeclared: true, status: 'closed', sinisterIntermediateRef: 'G-1' },
        { guaranteeLabel: 'Bris de glace', sinisterDate: daysAgo(60), isDeclared: true, status: 'closed', sinisterIntermediateRef: 'G-2' },
        { guaranteeLabel: 'Bris de glace', sinisterDate: daysAgo(300), isDeclared: true, status: 'closed', sinisterIntermediateRef: 'G-3' },
      ]),
    );
    await evaluate();
    expect(await openOf('glassBreakage')).toEqual([]);
    await t.seed((tx) => tx.execute(sql`update sinisters set sinister_date = ${daysAgo(90)}::date where uuid = ${glass[2]!.uuid}`));
    await evaluate();
    const [alert] = await openOf('glassBreakage');
    expect(alert).toMatchObject({ cause_key: 'glass-breakage', title: '3 bris de glace en 6 mois', severity: 'attention' });
    expect(alert!.link_href).toMatch(/^\/sinisters\?garantee=[0-9a-f-]{36}&startDate=/);
    expect((await evaluate()).raised).toBe(0);
    await t.seed((tx) => tx.execute(sql`delete from sinisters where uuid = ${glass[0]!.uuid}`));
    await evaluate();
    expect(await openOf('glassBreakage')).toEqual([]);
  });

  it('a bodily-injury claim, a claim not declared after 30 days, a claim unchanged for 60 days', async () => {
    const [injury, late, idle] = await t.seed((tx) =>
      createSinisters(tx, org, [
        { hasHumanInjury: true, sinisterDate: daysAgo(2), isDeclared: true, immatriculation: 'AB123CD', sinisterIntermediateRef: 'C-1' },
        { sinisterDate: daysAgo(31), isDeclared: false, sinisterIntermediateRef: 'C-2' },
        { sinisterDate: daysAgo(70), isDeclared: true, sinisterIntermediateRef: 'C-3' },
        // Not declared for 29 days only: not yet.
        { sinisterDate: daysAgo(29), isDeclared: false, sinisterIntermediateRef: 'C-4' },
      ]),
    );
    await t.seed((tx) => tx.execute(sql`update sinisters set updated_at = now() - interval '61 days' where uuid = ${idle!.uuid}`));
    await evaluate();
    const [bodily] = await openOf('bodilyInjury');
    expect(bodily).toMatchObject({ cause_key: `bodily-injury:${injury!.uuid}`, severity: 'urgent' });
    expect(bodily!.link_href).toBe(`/sinisters?hasHumanInjury=true&startDate=${daysAgo(2)}&endDate=${daysAgo(2)}&search=C-1`);
    expect((await openOf('notDeclared')).map((a) => a.cause_key)).toEqual([`not-declared:${late!.uuid}`]);
    expect((await openOf('unchanged')).map((a) => a.cause_key)).toEqual([`unchanged:${idle!.uuid}`]);
    expect(await evaluate()).toEqual({ raised: 0, reopened: 0, closed: 0 });
    // Each cause goes: the claim closed, declared, changed.
    await t.seed((tx) => tx.execute(sql`update sinisters set status = 'closed', closed_at = ${TODAY}::date, reserve_cents = 0 where uuid = ${injury!.uuid}`));
    await t.seed((tx) => tx.execute(sql`update sinisters set is_declared = true where uuid = ${late!.uuid}`));
    await t.seed((tx) => tx.execute(sql`update sinisters set updated_at = now() where uuid = ${idle!.uuid}`));
    expect((await evaluate()).closed).toBe(3);
    expect([...(await openOf('bodilyInjury')), ...(await openOf('notDeclared')), ...(await openOf('unchanged'))]).toEqual([]);
  });

  it('a document expiring within 30 days', async () => {
    const [doc] = await withTenant(t.database.db, org, (tx) =>
      tx.execute(sql`insert into documents (organization_uuid, kind, name, expires_on) values (${org}, 'folder', 'Assurance', null) returning uuid`),
    ).then((r) => (r as unknown as { rows: { uuid: string }[] }).rows);
    // A folder has no expiry: a file is needed, with its stored bytes.
    await withTenant(t.database.db, org, (tx) =>
      tx.execute(sql`insert into stored_files (key, organization_uuid, size_bytes) values (${`${org}/carte-verte`}, ${org}, 10)`),
    );
    const inserted = await withTenant(t.database.db, org, (tx) =>
      tx.execute(
        sql`insert into documents (organization_uuid, parent_uuid, kind, name, file_key, size_bytes, media_type, expires_on)
            values (${org}, ${doc!.uuid}, 'file', 'Carte verte.pdf', ${`${org}/carte-verte`}, 10, 'application/pdf', ${daysAgo(-20)}::date) returning uuid`,
      ),
    );
    const file = (inserted as unknown as { rows: { uuid: string }[] }).rows[0]!;
    await evaluate();
    const [alert] = await openOf('documentExpiry');
    expect(alert).toMatchObject({ cause_key: `document-expiry:${file.uuid}:${daysAgo(-20)}`, title: 'Carte verte.pdf : document à renouveler', severity: 'attention' });
    expect(alert!.link_href).toBe(`/ged?parent=${doc!.uuid}&search=Carte+verte.pdf`);
    expect((await evaluate()).raised).toBe(0);
    // Renewed: a later expiry, the alert closes.
    await withTenant(t.database.db, org, (tx) => tx.execute(sql`update documents set expires_on = ${daysAgo(-400)}::date where uuid = ${file.uuid}`));
    await evaluate();
    expect(await openOf('documentExpiry')).toEqual([]);
  });

  it('a reopened alert is unread again', async () => {
    const [claim] = await t.seed((tx) => createSinisters(tx, org, [{ hasHumanInjury: true, sinisterDate: daysAgo(1), isDeclared: true, sinisterIntermediateRef: 'R-1' }]));
    await evaluate();
    const [alert] = await openOf('bodilyInjury');
    expect((await t.as(token, { method: 'POST', url: `/api/alert/${alert!.uuid}/read` })).statusCode).toBe(204);
    await t.seed((tx) => tx.execute(sql`update sinisters set has_human_injury = false where uuid = ${claim!.uuid}`));
    await evaluate();
    await t.seed((tx) => tx.execute(sql`update sinisters set has_human_injury = true where uuid = ${claim!.uuid}`));
    expect((await evaluate()).reopened).toBe(1);
    const list = (await t.as(token, { method: 'GET', url: '/api/alert' })).json<{ data: { uuid: string; read: boolean; closedAt: string | null }[] }>().data;
    expect(list.find((a) => a.uuid === alert!.uuid)).toMatchObject({ read: false, closedAt: null });
  });
});

describe('after a write, through the job queue', () => {
  it('a claim written through the API raises its alert a few seconds later, not in the request', async () => {
    const vehicule = await t.as(token, { method: 'POST', url: '/api/vehicule', payload: { immatriculation: 'GH-456-JK', brand: 'Renault', model: 'Master', type: 'VUL' } });
    expect(vehicule.statusCode, vehicule.body).toBe(201);
    const created = await t.as(token, {
      method: 'POST',
      url: '/api/sinister',
      payload: { vehicule: vehicule.json().uuid, sinisterDate: TODAY, hasHumanInjury: true, isDeclared: true, sinisterIntermediateRef: 'Q-1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().uuid as string;
    // Not raised by the request itself.
    expect((await alertsOf()).some((a) => a.cause_key === `bodily-injury:${uuid}`)).toBe(false);
    let raised = false;
    const deadline = Date.now() + 30_000;
    while (!raised && Date.now() < deadline) {
      raised = (await alertsOf()).some((a) => a.cause_key === `bodily-injury:${uuid}` && !a.closed);
      if (!raised) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(raised).toBe(true);
  }, 90_000);
});

describe('the broker’s daily digest', () => {
  it('tells each superadmin of the environment, once, of its clients’ new automatic alerts', async () => {
    // Everything before this test was told already (another digest); a fresh cause is raised now.
    await t.seed((tx) => tx.execute(sql`update organization_alerts set digested_at = now() where source = 'automatic'`));
    await t.seed((tx) => createSinisters(tx, org, [{ hasHumanInjury: true, sinisterDate: daysAgo(4), isDeclared: true, immatriculation: 'ZZ999ZZ', sinisterIntermediateRef: 'DIG-1' }]));
    await t.seed((tx) => createSinisters(tx, other, [{ hasHumanInjury: true, sinisterDate: daysAgo(4), isDeclared: true, sinisterIntermediateRef: 'AILLEURS-1' }]));
    await evaluate();
    await evaluate(other);
    // The new claim may move the period's figures too (a frequency near its limit): every pending alert is told.
    const pending = (await readSystem(t.database.db, (tx) =>
      tx.execute(sql`select count(*)::int as n from organization_alerts where source = 'automatic' and digested_at is null and closed_at is null`),
    )) as unknown as { rows: { n: number }[] };
    expect(pending.rows[0]!.n).toBeGreaterThanOrEqual(2);
    const before = smtp.received.length;
    const report = await sendAlertDigests({ db: t.database.db, mail: t.app.mail, baseUrl: 'https://flotte.exemple.fr' });
    expect(report).toEqual({ environments: 2, alerts: pending.rows[0]!.n, emails: 2 });
    await waitUntil(() => smtp.received.length >= before + 2, 75_000);
    const mails = smtp.received.slice(before);
    const azur = mails.find((m) => m.envelopeTo.includes('super@azur.fr'))!;
    expect(azur.parsed.subject).toBe(`Alertes de prévention : ${pending.rows[0]!.n - 1} nouvelle${pending.rows[0]!.n > 2 ? 's alertes' : ' alerte'} chez vos clients`);
    expect(azur.parsed.text).toContain('Bonjour Sophie,');
    expect(azur.parsed.text).toContain('Transports Alpha');
    expect(azur.parsed.text).toContain('DIG-1');
    expect(azur.parsed.text).not.toContain('AILLEURS-1');
    expect(azur.parsed.text).toContain('https://flotte.exemple.fr/superadmin/alerts');
    // The other environment's superadmin hears of its own client only.
    const boreal = mails.find((m) => m.envelopeTo.includes('super@boreal.fr'))!;
    expect(boreal.parsed.subject).toBe('Alertes de prévention : 1 nouvelle alerte chez vos clients');
    expect(boreal.parsed.text).toContain('AILLEURS-1');
    expect(boreal.parsed.text).not.toContain('DIG-1');
    // Opted out: nothing.
    expect(mails.some((m) => m.envelopeTo.includes('associe@azur.fr'))).toBe(false);
    // A rerun tells nothing twice.
    expect(await sendAlertDigests({ db: t.database.db, mail: t.app.mail, baseUrl: 'https://flotte.exemple.fr' })).toEqual({ environments: 0, alerts: 0, emails: 0 });
    const told = (await readSystem(t.database.db, (tx) => tx.execute(sql`select count(*)::int as n from organization_alerts where source = 'automatic' and digested_at is null`))) as unknown as { rows: { n: number }[] };
    expect(told.rows[0]!.n).toBe(0);
  }, 120_000);
});
