import { and, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { documents } from '../../src/db/schema/documents.js';
import { drivers } from '../../src/db/schema/drivers.js';
import { sinisters } from '../../src/db/schema/sinisters.js';
import { storedFiles } from '../../src/db/schema/stored-files.js';
import type { AuthContext } from '../../src/lib/auth-context.js';
import { ERASED_DOCUMENT_LABEL, ERASED_DRIVER_LABEL } from '../../src/modules/drivers/drivers.service.js';
import { EXPORTED_TABLES, NOT_EXPORTED } from '../../src/modules/organizations/organization-export.repository.js';
import { organizationExport } from '../../src/modules/organizations/organization-export.service.js';
import { createDrivers, createSinisters, createVehicules } from '../../src/seed/factories.js';
import { type EnvironmentFixtures, openEnvironments } from '../fixtures/environments.js';
import { multipartFiles } from '../multipart.js';
import { keysUnder, s3AppEnv, TEST_STORAGES, type TestStorage } from '../storage.js';
import type { TestContext } from '../test-app.js';
import { unzip } from '../zip.js';

/**
 * Issue 20, point 9 (personal data, GDPR): erasing a driver — its permanent deletion, DELETE
 * /api/driver/{uuid}/hard — removes its row, its documents (its folder, its files live or in the
 * trash, a file put in its folder by hand) and their stored objects, on the local disk and on S3;
 * only an ADMIN of its organization, a SUPERADMIN of its environment working in it, or ROOT may;
 * another organization's caller gets a 404 and nothing moves. An organization's data export (GET
 * /api/organization/{uuid}/export) holds its rows and files, and nothing of another organization
 * seeded with distinctive data; the same roles may ask for it. The file prints what it tried and
 * what held.
 */

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');
const LONG = 120_000;

const ledger: string[] = [];
const held = (tried: string, outcome: string) => ledger.push(`  ${tried.padEnd(86)} → ${outcome}`);
afterAll(() => {
  process.stdout.write(`[gdpr] ${ledger.length} attempts, each held:\n${ledger.join('\n')}\n`);
});

type Doc = { uuid: string; name: string; parent: string | null };

describe.each(TEST_STORAGES)('erasing a driver, files on %s', (storageName, createStorage) => {
  let t: TestContext;
  let f: EnvironmentFixtures;
  let tokens: Record<string, string>;
  let s3: TestStorage | undefined;

  beforeAll(async () => {
    s3 = storageName.startsWith('S3') ? await createStorage() : undefined;
    ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'user-b'], s3 ? s3AppEnv(s3) : {}));
    // ROOT and the superadmins work in a client organization, as the organization switcher does.
    const me = async (who: string) => (await t.as(tokens[who]!, { method: 'GET', url: '/api/auth/me' })).json<{ uuid: string; currentOrganizationUser: { uuid: string } }>();
    const adminA = await me('admin-a');
    const userB = await me('user-b');
    for (const [who, link] of [
      ['root', adminA.currentOrganizationUser.uuid],
      ['super-a', adminA.currentOrganizationUser.uuid],
      ['super-b', userB.currentOrganizationUser.uuid],
    ] as const) {
      const self = await me(who);
      const switched = await t.as(tokens[who]!, { method: 'PATCH', url: `/api/user/${self.uuid}`, payload: { currentOrganizationUser: link } });
      expect(switched.statusCode, switched.body).toBe(200);
    }
  }, LONG);
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  /** A driver of Étoile du Nord (organization A1) with two attached files (one then detached, in the trash) and a file put in its folder by hand. */
  async function driverWithFiles(lastName: string) {
    const [driver] = await t.seed((tx) => createDrivers(tx, f.orgA1.uuid, [{ firstName: 'Séraphin', lastName, email: `${lastName.toLowerCase()}@exemple.fr` }]));
    const upload = multipartFiles([
      { name: `permis ${lastName}.pdf`, content: PDF },
      { name: `carte vitale ${lastName}.pdf`, content: PDF },
    ]);
    const attached = await t.as(tokens['admin-a']!, { method: 'POST', url: `/api/driver/${driver!.uuid}/documents`, payload: upload.payload, headers: upload.headers });
    expect(attached.statusCode, attached.body).toBe(201);
    const files = attached.json<{ data: Doc[] }>().data;
    expect(files).toHaveLength(2);
    const detached = await t.as(tokens['admin-a']!, { method: 'DELETE', url: `/api/driver/${driver!.uuid}/documents/${files[1]!.uuid}` });
    expect(detached.statusCode, detached.body).toBe(204);
    const byHand = multipartFiles([{ name: `attestation ${lastName}.pdf`, content: PDF }]);
    const put = await t.as(tokens['admin-a']!, { method: 'POST', url: `/api/document/upload?parent=${files[0]!.parent}`, payload: byHand.payload, headers: byHand.headers });
    expect(put.statusCode, put.body).toBe(201);
    return { uuid: driver!.uuid, folder: files[0]!.parent! };
  }

  /** What the database and the storage hold of the organization: its documents' uuids, its stored files' keys and its objects. */
  async function holdings() {
    const rows = await t.seed(async (tx) => ({
      documents: (await tx.select({ uuid: documents.uuid }).from(documents).where(eq(documents.organizationUuid, f.orgA1.uuid))).map((row) => row.uuid),
      keys: (await tx.select({ key: storedFiles.key }).from(storedFiles).where(eq(storedFiles.organizationUuid, f.orgA1.uuid))).map((row) => row.key),
    }));
    return { ...rows, objects: await keysUnder(t.app.storage, `${f.orgA1.uuid}/`) };
  }

  /** The driver's documents (linked, or under its folder) and their keys, read as the system. */
  async function driverHoldings(driver: { uuid: string; folder: string }) {
    return t.seed(async (tx) => {
      const linked = await tx.select().from(documents).where(and(eq(documents.entityType, 'driver'), eq(documents.entityUuid, driver.uuid)));
      const inFolder = await tx.select().from(documents).where(eq(documents.parentUuid, driver.folder));
      const rows = [...new Map([...linked, ...inFolder].map((row) => [row.uuid, row])).values()];
      const [row] = await tx.select({ uuid: drivers.uuid }).from(drivers).where(eq(drivers.uuid, driver.uuid));
      return { exists: row !== undefined, documents: rows.map((d) => d.uuid), keys: rows.flatMap((d) => (d.fileKey ? [d.fileKey] : [])) };
    });
  }

  it(
    'removes the row, every document and every stored object of the driver, and nothing else',
    async () => {
      const erased = await driverWithFiles('Effacé');
      const kept = await driverWithFiles('Gardé');
      const [claim] = await t.seed((tx) => createSinisters(tx, f.orgA1.uuid, [{ driverUuid: erased.uuid, sinisterIntermediateRef: 'SIN-EFFACE-1' }]));
      const before = await driverHoldings(erased);
      // The folder, two attached files (one in the trash) and the file put in the folder by hand.
      expect(before.documents).toHaveLength(4);
      expect(before.keys).toHaveLength(3);
      for (const key of before.keys) expect(await t.app.storage.exists(key), key).toBe(true);
      const keptBefore = await driverHoldings(kept);
      const all = await holdings();

      const response = await t.as(tokens['admin-a']!, { method: 'DELETE', url: `/api/driver/${erased.uuid}/hard` });
      expect(response.statusCode, response.body).toBe(204);

      const after = await driverHoldings(erased);
      expect(after).toEqual({ exists: false, documents: [], keys: [] });
      const now = await holdings();
      expect(now.documents.sort()).toEqual(all.documents.filter((uuid) => !before.documents.includes(uuid)).sort());
      expect(now.keys.sort()).toEqual(all.keys.filter((key) => !before.keys.includes(key)).sort());
      for (const key of before.keys) {
        expect(await t.app.storage.exists(key), key).toBe(false);
        expect(now.objects).not.toContain(key);
      }
      // Its claim stays the organization's, without the link and without the copy of its name.
      const [claimAfter] = await t.seed((tx) => tx.select({ driverUuid: sinisters.driverUuid, driverName: sinisters.driverName }).from(sinisters).where(eq(sinisters.uuid, claim!.uuid)));
      expect(claimAfter).toEqual({ driverUuid: null, driverName: null });
      // The other driver keeps all of its own.
      expect(await driverHoldings(kept)).toEqual(keptBefore);
      for (const key of keptBefore.keys) expect(await t.app.storage.exists(key), key).toBe(true);
      // Nothing of it is served any more.
      expect((await t.as(tokens['admin-a']!, { method: 'GET', url: `/api/driver/${erased.uuid}` })).statusCode).toBe(404);
      expect((await t.as(tokens['admin-a']!, { method: 'GET', url: `/api/document/ged/paginated?search=Effac` })).json<{ total: number }>().total).toBe(0);
      expect((await t.as(tokens['admin-a']!, { method: 'GET', url: '/api/document/trash' })).json<{ data: Doc[] }>().data.map((d) => d.name)).not.toContain('carte vitale Effacé.pdf');
      held(
        `${storageName}: admin erases a driver with 4 documents, 3 stored files`,
        `204; row, 4 documents, 3 stored_files rows and 3 objects gone, its claim unlinked and nameless; the other driver's ${keptBefore.keys.length} files kept`,
      );
    },
    LONG,
  );

  it(
    'leaves in the activity log who did what and when, and nothing of the erased driver nor of its files; another driver’s entries untouched',
    async () => {
      const personal = { firstName: 'Ludivine', lastName: `Oubliée${storageName.length}`, email: `ludivine.oubliee${storageName.length}@exemple.fr` };
      const created = await t.as(tokens['admin-a']!, { method: 'POST', url: '/api/driver', payload: { ...personal, phone: '0611223344' } });
      expect(created.statusCode, created.body).toBe(201);
      const erased = created.json<{ uuid: string }>().uuid;
      const renamed = await t.as(tokens['admin-a']!, { method: 'PATCH', url: `/api/driver/${erased}`, payload: { phone: '0655667788' } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      const upload = multipartFiles([{ name: `permis ${personal.lastName}.pdf`, content: PDF }]);
      const attached = await t.as(tokens['admin-a']!, { method: 'POST', url: `/api/driver/${erased}/documents`, payload: upload.payload, headers: upload.headers });
      expect(attached.statusCode, attached.body).toBe(201);
      const keptDriver = await t.as(tokens['admin-a']!, { method: 'POST', url: '/api/driver', payload: { firstName: 'Gaspard', lastName: 'Conservé', email: 'gaspard.conserve@exemple.fr' } });
      expect(keptDriver.statusCode, keptDriver.body).toBe(201);
      const kept = keptDriver.json<{ uuid: string }>().uuid;
      const entriesOf = (record: string) =>
        t.seed(async (tx) => ((await tx.execute(sql`select action, label, changed, before, after, actor_email from audit_log where record_uuid = ${record}::uuid order by id`)) as unknown as { rows: Record<string, unknown>[] }).rows);
      const keptBefore = await entriesOf(kept);
      expect(JSON.stringify(await entriesOf(erased))).toContain(personal.lastName);

      const response = await t.as(tokens['admin-a']!, { method: 'DELETE', url: `/api/driver/${erased}/hard` });
      expect(response.statusCode, response.body).toBe(204);

      // The driver's entries stay (created, changed, deleted, by whom), blanked.
      const entries = await entriesOf(erased);
      expect(entries.map((entry) => entry.action)).toEqual(['insert', 'update', 'delete']);
      for (const entry of entries) expect(entry).toMatchObject({ label: ERASED_DRIVER_LABEL, changed: null, before: null, after: null, actor_email: 'admin-a@exemple.fr' });
      // Nothing of the person anywhere in the organization's log: not its name, e-mail or phones, not its file's name.
      const log = await t.seed(async (tx) => JSON.stringify(((await tx.execute(sql`select label, before, after from audit_log where organization_uuid = ${f.orgA1.uuid}::uuid`)) as unknown as { rows: unknown[] }).rows));
      for (const mark of [personal.lastName, personal.email, '611223344', '655667788']) expect(log, mark).not.toContain(mark);
      expect(log).toContain(ERASED_DOCUMENT_LABEL);
      // Another driver's entries are as they were; the log reads as before through the API.
      expect(await entriesOf(kept)).toEqual(keptBefore);
      expect(JSON.stringify(keptBefore)).toContain('Conservé');
      const page = await t.as(tokens['admin-a']!, { method: 'GET', url: `/api/audit-log?record=${erased}` });
      expect(page.statusCode, page.body).toBe(200);
      expect(page.json<{ total: number; data: { label: string; changes: unknown[] }[] }>()).toMatchObject({ total: 3, data: [1, 2, 3].map(() => ({ label: ERASED_DRIVER_LABEL, changes: [] })) });
      held(`${storageName}: the activity log after a driver's erasure`, `its 3 entries kept, labelled « ${ERASED_DRIVER_LABEL} », values blanked; no trace of name, e-mail, phones or file name; the other driver's entries unchanged`);
    },
    LONG,
  );

  it(
    'is for an ADMIN of the organization, a SUPERADMIN of its environment working in it, or ROOT; another organization gets a 404, nothing moves',
    async () => {
      const cases = [
        ['root', 204],
        ['super-a', 204],
        ['admin-a', 204],
        ['user-a', 403],
        ['user-b', 404],
        ['super-b', 404],
        [null, 401],
      ] as const;
      for (const [who, status] of cases) {
        const driver = await driverWithFiles(`Rôle ${who ?? 'anonyme'}`);
        const before = await driverHoldings(driver);
        const url = `/api/driver/${driver.uuid}/hard`;
        const response = who ? await t.as(tokens[who]!, { method: 'DELETE', url }) : await t.app.inject({ method: 'DELETE', url });
        expect(response.statusCode, `${who}: ${response.body}`).toBe(status);
        const after = await driverHoldings(driver);
        if (status === 204) {
          expect(after).toEqual({ exists: false, documents: [], keys: [] });
          for (const key of before.keys) expect(await t.app.storage.exists(key), key).toBe(false);
        } else {
          // Refused: the row, the documents and the objects are all still there, and the message is French.
          expect(after).toEqual(before);
          for (const key of before.keys) expect(await t.app.storage.exists(key), key).toBe(true);
          expect(response.json<{ message: string }>().message).toMatch(/[éèà]|introuvable|Authentification|administrateur/);
        }
        held(`${storageName}: ${(who ?? 'anonyme').padEnd(8)} erases a driver of Étoile du Nord (3 files)`, `${response.statusCode}${status === 204 ? ', everything gone' : ', nothing moved'}`);
      }
    },
    LONG,
  );
});


describe("an organization's data export", () => {
  let t: TestContext;
  let f: EnvironmentFixtures;
  let tokens: Record<string, string>;
  const ALPHA_FILE = Buffer.concat([PDF, Buffer.from('% CONTENU-ALPHA-7731\n')]);
  const BETA_FILE = Buffer.concat([PDF, Buffer.from('% CONTENU-BETA-8842\n')]);
  /** What only the other organization (Logistique Bêta) holds: none of it may be in Étoile du Nord's export. */
  const BETA_MARKS = ['Bérénice', 'Étrangère', 'berenice', 'MarqueBeta', 'SIN-BETA-8842', 'CONTENU-BETA-8842', 'contrat beta', 'user-b@exemple.fr', 'Logistique Bêta'];

  beforeAll(async () => {
    ({ t, f, tokens } = await openEnvironments(['root', 'super-a', 'super-b', 'admin-a', 'user-a', 'user-b']));
    for (const [org, name, brand, ref, email] of [
      [f.orgA1.uuid, ['Alphonse', 'Exportable'], 'MarqueAlpha', 'SIN-ALPHA-7731', 'alphonse.exportable@alpha.fr'],
      [f.orgB1.uuid, ['Bérénice', 'Étrangère'], 'MarqueBeta', 'SIN-BETA-8842', 'berenice.etrangere@beta.fr'],
    ] as const) {
      await t.seed(async (tx) => {
        const [driver] = await createDrivers(tx, org, [{ firstName: name[0], lastName: name[1], email }]);
        const [vehicule] = await createVehicules(tx, org, [{ brand }]);
        await createSinisters(tx, org, [{ sinisterIntermediateRef: ref, driverUuid: driver!.uuid, vehiculeUuid: vehicule!.uuid }]);
      });
    }
    for (const [who, name, content] of [
      ['admin-a', 'contrat alpha.pdf', ALPHA_FILE],
      ['user-b', 'contrat beta.pdf', BETA_FILE],
    ] as const) {
      const upload = multipartFiles([{ name, content }]);
      const response = await t.as(tokens[who]!, { method: 'POST', url: '/api/document/upload', payload: upload.payload, headers: upload.headers });
      expect(response.statusCode, response.body).toBe(201);
    }
    const me = async (who: string) => (await t.as(tokens[who]!, { method: 'GET', url: '/api/auth/me' })).json<{ uuid: string; currentOrganizationUser: { uuid: string } }>();
    const superB = await me('super-b');
    const userB = await me('user-b');
    const switched = await t.as(tokens['super-b']!, { method: 'PATCH', url: `/api/user/${superB.uuid}`, payload: { currentOrganizationUser: userB.currentOrganizationUser.uuid } });
    expect(switched.statusCode, switched.body).toBe(200);
  }, LONG);
  afterAll(() => t?.close());

  /** ROOT's context, as the service is called by the export route (tests that call it directly). */
  const rootContext = async (): Promise<AuthContext> => {
    const root = (await t.as(tokens['root']!, { method: 'GET', url: '/api/auth/me' })).json<{ uuid: string }>().uuid;
    return { userUuid: root, sessionUuid: randomUUID(), roles: ['ROOT'], organizationUuid: null, organizationUserUuid: null, environmentUuids: [] };
  };

  const exportOf = (who: string | null, organization: string) => {
    const url = `/api/organization/${organization}/export`;
    return who ? t.as(tokens[who]!, { method: 'GET', url }) : t.app.inject({ method: 'GET', url });
  };

  it('holds every table of the organization as JSON and its files, and nothing of another organization', async () => {
    const response = await exportOf('admin-a', f.orgA1.uuid);
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename=".*\.zip"/);
    const entries = await unzip(response.rawPayload);
    const json = <T>(name: string) => JSON.parse(entries.get(name)!.toString('utf8')) as T;

    const head = json<{ organization: { uuid: string; title: string }; members: { email: string; role: string }[] }>('organisation.json');
    expect(head.organization).toMatchObject({ uuid: f.orgA1.uuid, title: 'Étoile du Nord' });
    expect(head.members.map((m) => m.email).sort()).toEqual(['admin-a@exemple.fr', 'user-a@exemple.fr']);
    expect(JSON.stringify(json<unknown[]>('drivers.json'))).toContain('Exportable');
    expect(JSON.stringify(json<unknown[]>('drivers.json'))).toContain('alphonse.exportable@alpha.fr');
    expect(JSON.stringify(json<unknown[]>('vehicules.json'))).toContain('MarqueAlpha');
    expect(JSON.stringify(json<unknown[]>('sinisters.json'))).toContain('SIN-ALPHA-7731');
    expect(JSON.stringify(json<unknown[]>('documents.json'))).toContain('contrat alpha.pdf');
    expect(json<unknown[]>('organization_users.json')).toHaveLength(2);
    // Every table of the list, each row the organization's.
    for (const table of EXPORTED_TABLES) {
      const rows = json<Record<string, unknown>[]>(`${table}.json`);
      for (const row of rows) expect(row.organization_uuid, `${table}: ${JSON.stringify(row).slice(0, 200)}`).toBe(f.orgA1.uuid);
    }
    // Its file, byte for byte.
    const files = [...entries.keys()].filter((name) => name.startsWith('fichiers/'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/contrat alpha\.pdf$/);
    expect(entries.get(files[0]!)!.equals(ALPHA_FILE)).toBe(true);

    // Nothing of Logistique Bêta, no secret, no storage key.
    const everything = [...entries.values()].map((bytes) => bytes.toString('utf8')).join('\n');
    for (const mark of [...BETA_MARKS, f.orgB1.uuid]) expect(everything, mark).not.toContain(mark);
    for (const secret of ['$argon2', 'password', 'token_hash', 'file_key', 'search_text', `${f.orgA1.uuid}/`]) expect(everything, secret).not.toContain(secret);
    held(
      'admin-a exports Étoile du Nord',
      `200, ${entries.size} entries (${EXPORTED_TABLES.length} tables, organisation.json, 1 file); its rows and file, none of Logistique Bêta's ${BETA_MARKS.length} marks nor its uuid, no secret`,
    );
  });

  it('streams its tables batch after batch: in batches of two rows, the same archive as in one; each table as JSON.stringify writes it', async () => {
    await t.seed((tx) => createDrivers(tx, f.orgA1.uuid, [1, 2, 3, 4].map((n) => ({ firstName: `Lot${n}`, lastName: 'Exportable' }))));
    const ctx = await rootContext();
    const at = new Date('2026-11-27T12:00:00Z');
    const archive = async (batchSize: number) => {
      const exported = await organizationExport({ db: t.database.db, storage: t.app.storage }, ctx, f.orgA1.uuid, at, batchSize);
      return unzip(Buffer.concat(await exported.stream.toArray()));
    };
    const inTwos = await archive(2);
    const whole = await archive(100_000);
    expect([...inTwos.keys()]).toEqual([...whole.keys()]);
    for (const [name, bytes] of whole) expect(inTwos.get(name)!.equals(bytes), name).toBe(true);
    for (const table of EXPORTED_TABLES) {
      const text = whole.get(`${table}.json`)!.toString('utf8');
      expect(text, table).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
    const driverRows = JSON.parse(whole.get('drivers.json')!.toString('utf8')) as unknown[];
    expect(driverRows.length).toBeGreaterThanOrEqual(5);
    held('the export in batches of 2 rows and in one batch', `the same ${whole.size} entries byte for byte (drivers: ${driverRows.length} rows); every table as JSON.stringify writes it`);
  });

  it('ends its snapshot when the download is abandoned: the database is free again at once', async () => {
    const ctx = await rootContext();
    // More rows than the ZIP's buffers hold (≈ 2 MB of JSON): the reading waits for the client.
    await t.seed((tx) => createDrivers(tx, f.orgA1.uuid, Array.from({ length: 4_000 }, (_, n) => ({ firstName: `Volume${n}`, lastName: `Exportable ${randomUUID()}` }))));
    const exported = await organizationExport({ db: t.database.db, storage: t.app.storage }, ctx, f.orgA1.uuid, new Date(), 100);
    // One chunk, then the stream is closed without an error (a pipe's premature close ends it with
    // one; a plain destroy() must end the snapshot all the same).
    const [chunk] = (await once(exported.stream, 'data')) as [Buffer];
    expect(chunk.length).toBeGreaterThan(0);
    exported.stream.destroy();
    // A snapshot left open holds its connection: on PGlite, the only one (the next statement would
    // wait for ever); on PostgreSQL, a session idle in its transaction.
    const openTransactions = async () => {
      if (inject('testDb').kind !== 'postgres') return (await t.seed((tx) => tx.execute(sql`select 1`)), 0);
      // A session of its own, without the app's role: the app's roles do not see other sessions' state.
      const client = new pg.Client({ connectionString: (t.database.pool!.options as { connectionString: string }).connectionString });
      await client.connect();
      try {
        const result = await client.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state like 'idle in transaction%'`,
        );
        return result.rows[0]!.n;
      } finally {
        await client.end();
      }
    };
    const deadline = Date.now() + 5_000;
    let open = await openTransactions();
    while (open > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      open = await openTransactions();
    }
    expect(open).toBe(0);
    const again = await exportOf('admin-a', f.orgA1.uuid);
    expect(again.statusCode).toBe(200);
    held('an export abandoned after its first chunk', 'its snapshot ended (no transaction left open), the next export answers 200');
  });

  it('decides on every table holding an organization column: exported, or left out with a reason', async () => {
    const tables = await t.seed(async (tx) =>
      ((await tx.execute(sql`select c.table_name as name from information_schema.columns c join information_schema.tables t using (table_schema, table_name)
          where c.table_schema = 'public' and c.column_name = 'organization_uuid' and t.table_type = 'BASE TABLE' order by 1`)) as unknown as { rows: { name: string }[] }).rows.map((row) => row.name),
    );
    expect(tables.length).toBeGreaterThan(20);
    const undecided = tables.filter((table) => !(EXPORTED_TABLES as readonly string[]).includes(table) && !(table in NOT_EXPORTED));
    expect(undecided, 'tables neither exported nor listed in NOT_EXPORTED').toEqual([]);
    held(`${tables.length} tables with an organization column`, `${EXPORTED_TABLES.length} exported, ${Object.keys(NOT_EXPORTED).length} left out with a reason, none undecided`);
  });

  it('is for an ADMIN of the organization, a SUPERADMIN of its environment or ROOT; another organization gets a 404', async () => {
    const cases = [
      ['root', f.orgA1.uuid, 200],
      ['super-a', f.orgA1.uuid, 200],
      ['admin-a', f.orgA1.uuid, 200],
      ['user-a', f.orgA1.uuid, 403],
      ['user-b', f.orgA1.uuid, 404],
      ['super-b', f.orgA1.uuid, 404],
      ['admin-a', f.orgB1.uuid, 404],
      ['super-a', f.orgB1.uuid, 404],
      ['root', f.orgB1.uuid, 200],
      ['admin-a', '00000000-0000-4000-8000-000000000000', 404],
      [null, f.orgA1.uuid, 401],
    ] as const;
    for (const [who, organization, status] of cases) {
      const response = await exportOf(who, organization);
      expect(response.statusCode, `${who} → ${organization}: ${response.body.slice(0, 200)}`).toBe(status);
      const title = organization === f.orgA1.uuid ? 'Étoile du Nord' : organization === f.orgB1.uuid ? 'Logistique Bêta' : 'une organisation inconnue';
      if (status === 200) {
        const head = JSON.parse((await unzip(response.rawPayload)).get('organisation.json')!.toString('utf8')) as { organization: { uuid: string } };
        expect(head.organization.uuid).toBe(organization);
      } else {
        // A French message, and not one byte of a ZIP.
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.json<{ message: string }>().message).toMatch(/introuvable|administrateur|Authentification/);
      }
      held(`${(who ?? 'anonyme').padEnd(8)} exports ${title}`, String(response.statusCode));
    }
  });
});
