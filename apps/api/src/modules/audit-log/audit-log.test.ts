import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSystem, withTenant } from '../../db/scope.js';
import { attachToEnvironment, createEnvironment, createOrganization, createUser, createVehicules, linkUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

/**
 * The activity log (issue 16, decision 041): what each role's writes leave in it, before and
 * after, and who may read it. Every write here goes through the API, as a person makes it.
 */
let t: TestContext;
let ids: { orgA: string; orgB: string; superA: string; root: string; adminA: string; userA: string; adminB: string };
let tokens: Record<'superA' | 'superOther' | 'root' | 'adminA' | 'userA' | 'adminB', string>;

beforeAll(async () => {
  t = await createTestApp();
  ids = await t.seed(async (tx) => {
    const env = await createEnvironment(tx, { title: 'Cabinet Azur' });
    const other = await createEnvironment(tx, { title: 'Cabinet Boréal' });
    const orgA = await createOrganization(tx, { title: 'Transports Alpha', environmentUuid: env.uuid });
    const orgB = await createOrganization(tx, { title: 'Bâtiment Beta', environmentUuid: env.uuid });
    const orgOther = await createOrganization(tx, { title: 'Livraisons Gamma', environmentUuid: other.uuid });
    const superA = await createUser(tx, { email: 'courtier@azur.fr', firstName: 'Sophie', lastName: 'Courtier', roles: ['SUPERADMIN'] });
    const superOther = await createUser(tx, { email: 'courtier@boreal.fr', roles: ['SUPERADMIN'] });
    const root = await createUser(tx, { email: 'root@flotte.fr', firstName: 'Régis', lastName: 'Racine', roles: ['ROOT'] });
    const adminA = await createUser(tx, { email: 'admin@alpha.fr', firstName: 'Alice', lastName: 'Martin' });
    const userA = await createUser(tx, { email: 'membre@alpha.fr', firstName: 'Hélène', lastName: 'Lefèvre' });
    const adminB = await createUser(tx, { email: 'admin@beta.fr', firstName: 'Bruno', lastName: 'Petit' });
    await attachToEnvironment(tx, env.uuid, superA.uuid);
    await attachToEnvironment(tx, other.uuid, superOther.uuid);
    await linkUser(tx, orgA.uuid, superA.uuid);
    await linkUser(tx, orgA.uuid, root.uuid);
    await linkUser(tx, orgA.uuid, adminA.uuid, 'ADMIN');
    await linkUser(tx, orgA.uuid, userA.uuid);
    await linkUser(tx, orgB.uuid, adminB.uuid, 'ADMIN');
    await linkUser(tx, orgOther.uuid, superOther.uuid);
    return { orgA: orgA.uuid, orgB: orgB.uuid, superA: superA.uuid, root: root.uuid, adminA: adminA.uuid, userA: userA.uuid, adminB: adminB.uuid };
  });
  tokens = {
    superA: await t.login('courtier@azur.fr'),
    superOther: await t.login('courtier@boreal.fr'),
    root: await t.login('root@flotte.fr'),
    adminA: await t.login('admin@alpha.fr'),
    userA: await t.login('membre@alpha.fr'),
    adminB: await t.login('admin@beta.fr'),
  };
}, 120_000);
afterAll(async () => t?.close());

type Entry = {
  id: string;
  occurredAt: string;
  actor: { uuid: string; name: string; email: string; role: string; roleLabel: string };
  entity: string;
  entityLabel: string;
  record: string;
  label: string | null;
  action: string;
  actionLabel: string;
  changes: { field: string; label: string; before: string | null; after: string | null }[];
};

async function log(token: string, query: Record<string, string | number> = {}): Promise<{ data: Entry[]; total: number; nbOfPages: number }> {
  const response = await t.as(token, { method: 'GET', url: '/api/audit-log', query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}
/** A record's history, oldest first. */
const history = async (record: string, token = tokens.adminA) => (await log(token, { record, limit: 100 })).data.reverse();
const change = (entry: Entry, field: string) => entry.changes.find((c) => c.field === field);

/** The database's message of a failed statement (drizzle wraps it in its cause). */
async function failure(attempt: Promise<unknown>): Promise<string> {
  try {
    await attempt;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return `${(error as Error).message} ${cause?.message ?? ''}`;
  }
  return 'no failure';
}

async function count(): Promise<number> {
  const result = await readSystem(t.database.db, (tx) => tx.execute(sql`select count(*)::int as n from audit_log`));
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

let plate = 100;
const nextPlate = () => `AU-${plate++}-DT`;

async function createVehicule(token: string, body: Record<string, unknown> = {}): Promise<string> {
  const response = await t.as(token, { method: 'POST', url: '/api/vehicule', payload: { brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: nextPlate(), entryDate: '2021-01-01', ...body } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().uuid;
}

describe('a vehicle’s life, written by an administrator', () => {
  it('records its creation, update, archiving, restoring and permanent deletion with the fields before and after', async () => {
    const uuid = await createVehicule(tokens.adminA, { immatriculation: 'AB-123-CD' });
    const updated = await t.as(tokens.adminA, { method: 'PATCH', url: `/api/vehicule/${uuid}`, payload: { brand: 'Renault', model: 'Master', type: 'VUL', immatriculation: 'AB-123-CD', entryDate: '2021-01-01' } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await t.as(tokens.adminA, { method: 'DELETE', url: `/api/vehicule/${uuid}?exitDate=2024-05-31` })).statusCode).toBe(200);
    expect((await t.as(tokens.adminA, { method: 'POST', url: `/api/vehicule/restore/${uuid}` })).statusCode).toBe(200);
    expect((await t.as(tokens.adminA, { method: 'DELETE', url: `/api/vehicule/${uuid}/hard` })).statusCode).toBe(204);

    const entries = await history(uuid);
    expect(entries.map((e) => e.action)).toEqual(['insert', 'update', 'archive', 'restore', 'delete']);
    expect(entries.map((e) => e.actionLabel)).toEqual(['Création', 'Modification', 'Archivage', 'Restauration', 'Suppression']);
    for (const entry of entries) {
      expect(entry).toMatchObject({ entity: 'vehicule', entityLabel: 'Véhicule', record: uuid, label: 'AB-123-CD' });
      expect(entry.actor).toEqual({ uuid: ids.adminA, name: 'Alice Martin', email: 'admin@alpha.fr', role: 'ADMIN', roleLabel: 'Administrateur' });
    }
    const [created, update, archived, restored, deleted] = entries as [Entry, Entry, Entry, Entry, Entry];
    // In the order of the vehicle's form, only the fields with a value.
    expect(created.changes.map((c) => c.label)).toEqual(['Immatriculation', 'Marque', 'Modèle', 'Catégorie', 'Entrée']);
    expect(change(created, 'brand')).toEqual({ field: 'brand', label: 'Marque', before: null, after: 'Peugeot' });
    expect(change(created, 'immatriculation')).toMatchObject({ label: 'Immatriculation', after: 'AB-123-CD' });
    expect(change(created, 'entry_date')).toMatchObject({ label: 'Entrée', after: '01/01/2021' });
    // Only what changed, never what PostgreSQL derives (search text, sort keys) or its bookkeeping.
    expect(update.changes).toEqual([
      { field: 'brand', label: 'Marque', before: 'Peugeot', after: 'Renault' },
      { field: 'model', label: 'Modèle', before: '3008', after: 'Master' },
      { field: 'type', label: 'Catégorie', before: 'VP', after: 'VUL' },
    ]);
    expect(archived.changes.map((c) => c.field).sort()).toEqual(['archived_at', 'exit_date']);
    expect(change(archived, 'exit_date')).toMatchObject({ before: null, after: '31/05/2024' });
    expect(change(archived, 'archived_at')).toMatchObject({ before: null, after: expect.stringMatching(/^\d{2}\/\d{2}\/\d{4}$/) });
    expect(change(restored, 'archived_at')).toMatchObject({ before: expect.any(String), after: null });
    expect(change(deleted, 'brand')).toEqual({ field: 'brand', label: 'Marque', before: 'Renault', after: null });
    expect(deleted.changes.some((c) => c.field.endsWith('_key') || c.field === 'search_text' || c.field === 'updated_at')).toBe(false);
  });

  it('names a vehicle by its plate as the app shows it, or by its brand and model without one', async () => {
    const fni = await createVehicule(tokens.adminA, { immatriculation: '123 ABC 45' });
    const unusual = await createVehicule(tokens.adminA, { immatriculation: 'JA-041-AU' });
    expect((await history(fni))[0]!.label).toBe('123 ABC 45');
    expect((await history(unusual))[0]!.label).toBe('JA041AU');
  });

  it('records nothing for an update that changes no field', async () => {
    const uuid = await createVehicule(tokens.adminA, { immatriculation: 'AB-124-CD' });
    const same = { brand: 'Peugeot', model: '3008', type: 'VP', immatriculation: 'AB-124-CD', entryDate: '2021-01-01' };
    expect((await t.as(tokens.adminA, { method: 'PATCH', url: `/api/vehicule/${uuid}`, payload: same })).statusCode).toBe(200);
    expect((await history(uuid)).map((e) => e.action)).toEqual(['insert']);
  });
});

describe('members’ writes', () => {
  it('answers « who archived this driver »: a plain user’s writes, read by the administrator', async () => {
    const created = await t.as(tokens.userA, { method: 'POST', url: '/api/driver', payload: { firstName: 'Léa', lastName: 'Roux', email: 'lea@exemple.fr', phone: '0612345678' } });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().uuid;
    expect((await t.as(tokens.userA, { method: 'PATCH', url: `/api/driver/${uuid}`, payload: { firstName: 'Léa', lastName: 'Rousseau', email: 'lea@exemple.fr', phone: '0612345678' } })).statusCode).toBe(200);
    expect((await t.as(tokens.userA, { method: 'DELETE', url: `/api/driver/${uuid}` })).statusCode).toBe(200);
    const entries = await history(uuid);
    expect(entries.map((e) => [e.action, e.actor.name, e.actor.role, e.label])).toEqual([
      ['insert', 'Hélène Lefèvre', 'USER', 'Léa Roux'],
      ['update', 'Hélène Lefèvre', 'USER', 'Léa Rousseau'],
      ['archive', 'Hélène Lefèvre', 'USER', 'Léa Rousseau'],
    ]);
    expect(entries[1]!.changes).toEqual([{ field: 'last_name', label: 'Nom', before: 'Roux', after: 'Rousseau' }]);
    expect(entries[2]!.actor.roleLabel).toBe('Utilisateur');
  });

  it('records a claim’s creation, update, archiving, restoring and deletion', async () => {
    const vehicule = await createVehicule(tokens.userA);
    const body = { sinisterIntermediateRef: 'SIN-AUDIT-1', sinisterDate: '2025-05-05', city: 'Lyon', vehicule, totalCost: 10 };
    const created = await t.as(tokens.userA, { method: 'POST', url: '/api/sinister', payload: body });
    expect(created.statusCode, created.body).toBe(201);
    const uuid = created.json().uuid;
    expect((await t.as(tokens.userA, { method: 'PATCH', url: `/api/sinister/${uuid}`, payload: { ...body, city: 'Villeurbanne' } })).statusCode).toBe(200);
    expect((await t.as(tokens.userA, { method: 'DELETE', url: `/api/sinister/${uuid}` })).statusCode).toBe(200);
    expect((await t.as(tokens.adminA, { method: 'POST', url: `/api/sinister/restore/${uuid}` })).statusCode).toBe(200);
    expect((await t.as(tokens.adminA, { method: 'DELETE', url: `/api/sinister/${uuid}/hard` })).statusCode).toBe(204);
    const entries = await history(uuid);
    expect(entries.map((e) => [e.action, e.actor.role])).toEqual([
      ['insert', 'USER'],
      ['update', 'USER'],
      ['archive', 'USER'],
      ['restore', 'ADMIN'],
      ['delete', 'ADMIN'],
    ]);
    expect(entries[0]).toMatchObject({ entity: 'sinister', entityLabel: 'Sinistre', label: 'SIN-AUDIT-1' });
    expect(change(entries[0]!, 'sinister_date')).toMatchObject({ label: 'Date du sinistre', after: '05/05/2025' });
    expect(change(entries[0]!, 'reserve_cents')).toMatchObject({ label: 'Réserve', after: '10,00\u00a0€' });
    expect(entries[1]!.changes).toEqual([{ field: 'city', label: 'Ville', before: 'Lyon', after: 'Villeurbanne' }]);
    expect(change(entries[4]!, 'city')).toMatchObject({ before: 'Villeurbanne', after: null });
  });

  it('keeps no secret: an invitation’s token hash is never recorded', async () => {
    const response = await t.as(tokens.adminA, { method: 'POST', url: '/api/organization-invitation', payload: { email: 'collegue@alpha.fr', role: 'USER' } });
    expect(response.statusCode, response.body).toBe(201);
    const [entry] = (await log(tokens.adminA, { entity: 'invitation' })).data;
    expect(entry).toMatchObject({ action: 'insert', entityLabel: 'Invitation', label: 'collegue@alpha.fr', actor: { uuid: ids.adminA } });
    expect(entry!.changes.map((c) => c.field)).not.toContain('token_hash');
    const raw = await readSystem(t.database.db, (tx) => tx.execute(sql`select after::text as after from audit_log where entity = 'invitation'`));
    expect((raw as unknown as { rows: { after: string }[] }).rows[0]!.after).not.toContain('token_hash');
  });
});

describe('members and settings', () => {
  it('records a member’s role change with its French values, and the organization’s settings', async () => {
    const members = await t.as(tokens.adminA, { method: 'GET', url: `/api/organization-user?organization=${ids.orgA}&limit=100` });
    const link = members.json().data.find((m: { user: { uuid: string } }) => m.user.uuid === ids.userA);
    expect((await t.as(tokens.adminA, { method: 'PATCH', url: `/api/organization-user/${link.uuid}`, payload: { role: 'ADMIN' } })).statusCode).toBe(200);
    expect((await t.as(tokens.adminA, { method: 'PATCH', url: `/api/organization-user/${link.uuid}`, payload: { role: 'USER' } })).statusCode).toBe(200);
    const entries = await history(link.uuid);
    expect(entries.map((e) => [e.entityLabel, e.label, e.actionLabel, e.changes])).toEqual([
      ['Membre', 'Hélène Lefèvre', 'Modification', [{ field: 'role', label: 'Rôle', before: 'Utilisateur', after: 'Administrateur' }]],
      ['Membre', 'Hélène Lefèvre', 'Modification', [{ field: 'role', label: 'Rôle', before: 'Administrateur', after: 'Utilisateur' }]],
    ]);
  });
});

describe('the broker’s writes inside a client organization', () => {
  it('records a superadmin’s and a ROOT’s writes with their name and role', async () => {
    const bySuper = await createVehicule(tokens.superA);
    const byRoot = await createVehicule(tokens.root);
    expect((await history(bySuper))[0]!.actor).toEqual({ uuid: ids.superA, name: 'Sophie Courtier', email: 'courtier@azur.fr', role: 'SUPERADMIN', roleLabel: 'Superadmin' });
    expect((await history(byRoot))[0]!.actor).toEqual({ uuid: ids.root, name: 'Régis Racine', email: 'root@flotte.fr', role: 'ROOT', roleLabel: 'Root' });
    // Both read the log of the organization they work in.
    expect((await log(tokens.superA, { record: bySuper })).data).toHaveLength(1);
    expect((await log(tokens.root, { record: byRoot })).data).toHaveLength(1);
  });
});

describe('who reads what', () => {
  it('shows an organization only its own entries', async () => {
    const inB = await createVehicule(tokens.adminB);
    expect((await history(inB, tokens.adminB)).map((e) => e.actor.uuid)).toEqual([ids.adminB]);
    expect((await log(tokens.adminA, { record: inB })).data).toEqual([]);
    expect((await log(tokens.adminA, { limit: 1000 })).data.every((e) => e.actor.uuid !== ids.adminB)).toBe(true);
    expect((await log(tokens.adminB, { limit: 1000 })).data.every((e) => e.record === inB || e.actor.uuid === ids.adminB)).toBe(true);
    // A superadmin of another environment reads its own organization's log: none of Alpha's entries.
    expect((await log(tokens.superOther, { limit: 1000 })).data).toEqual([]);
    const actors = await t.as(tokens.adminB, { method: 'GET', url: '/api/audit-log/actors' });
    expect(actors.json().data.map((a: { uuid: string }) => a.uuid)).toEqual([ids.adminB]);
  });

  it('refuses a plain user (403) and an anonymous caller (401)', async () => {
    for (const url of ['/api/audit-log', '/api/audit-log/actors']) {
      const refused = await t.as(tokens.userA, { method: 'GET', url });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe("Seul un administrateur de l'organisation peut consulter le journal d'activité");
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('filters by kind, author, words and days; refuses bad filters in French', async () => {
    const byUser = (await log(tokens.adminA, { actor: ids.userA, limit: 1000 })).data;
    expect(byUser.length).toBeGreaterThan(0);
    expect(byUser.every((e) => e.actor.uuid === ids.userA)).toBe(true);
    expect((await log(tokens.adminA, { entity: 'driver', limit: 1000 })).data.every((e) => e.entity === 'driver')).toBe(true);
    // Words of the author's name (accents aside) or e-mail, or of the record's label.
    const lefevre = (await log(tokens.adminA, { search: 'lefevre', limit: 1000 })).data;
    expect(lefevre.some((e) => e.actor.uuid === ids.userA)).toBe(true);
    expect(lefevre.every((e) => e.actor.uuid === ids.userA || e.label === 'Hélène Lefèvre')).toBe(true);
    expect((await log(tokens.adminA, { search: 'membre@alpha', limit: 1000 })).data.every((e) => e.actor.uuid === ids.userA)).toBe(true);
    expect((await log(tokens.adminA, { search: 'rousseau' })).data.map((e) => e.label)).toContain('Léa Rousseau');
    expect((await log(tokens.adminA, { from: '2000-01-01', to: '2000-12-31' })).data).toEqual([]);
    expect((await log(tokens.adminA, { from: '2000-01-01' })).total).toBeGreaterThan(0);
    const page = await log(tokens.adminA, { limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.nbOfPages).toBe(page.total);
    const newest = page.data[0]!;
    expect((await log(tokens.adminA, { limit: 100 })).data[0]!.id).toBe(newest.id);

    const bad = await t.as(tokens.adminA, { method: 'GET', url: '/api/audit-log?from=2025-02-01&to=2025-01-01&entity=voiture' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual(
      expect.arrayContaining([
        { path: 'entity', message: 'Type d’élément inconnu' },
      ]),
    );
    const order = await t.as(tokens.adminA, { method: 'GET', url: '/api/audit-log?from=2025-02-01&to=2025-01-01' });
    expect(order.statusCode).toBe(400);
    expect(order.json().details).toEqual([{ path: 'to', message: 'La date de début doit précéder la date de fin' }]);
  });
});

describe('what is never recorded, and what cannot be changed', () => {
  it('records nothing for a refused write', async () => {
    const uuid = await createVehicule(tokens.adminA);
    const before = await count();
    expect((await t.as(tokens.userA, { method: 'DELETE', url: `/api/vehicule/${uuid}/hard` })).statusCode).toBe(403);
    expect((await t.as(tokens.userA, { method: 'POST', url: '/api/vehicule', payload: { immatriculation: 'pas une plaque !' } })).statusCode).toBe(400);
    expect((await t.as(tokens.adminB, { method: 'PATCH', url: `/api/vehicule/${uuid}`, payload: { brand: 'Citroën', immatriculation: nextPlate() } })).statusCode).toBe(404);
    expect(await count()).toBe(before);
  });

  it('records nothing for a write no signed-in person makes (seeds, jobs)', async () => {
    const before = await count();
    await t.seed((tx) => createVehicules(tx, ids.orgA, [{ immatriculation: nextPlate().replaceAll('-', '') }, { immatriculation: nextPlate().replaceAll('-', '') }]));
    expect(await count()).toBe(before);
  });

  it('lets the tenant role neither change nor remove an entry, nor write one for another organization', async () => {
    await createVehicule(tokens.adminA);
    const db = t.database.db;
    expect(await failure(withTenant(db, ids.orgA, (tx) => tx.execute(sql`update audit_log set actor_name = 'Personne'`)))).toMatch(/permission denied/);
    expect(await failure(withTenant(db, ids.orgA, (tx) => tx.execute(sql`delete from audit_log`)))).toMatch(/permission denied/);
    expect(
      await failure(withTenant(db, ids.orgA, (tx) =>
        tx.execute(sql`insert into audit_log (organization_uuid, actor_uuid, actor_name, actor_email, actor_role, entity, record_uuid, action)
                       values (${ids.orgB}, ${ids.adminA}, 'x', 'x', 'ADMIN', 'vehicule', gen_random_uuid(), 'insert')`),
      )),
    ).toMatch(/row-level security/);
    const seen = await withTenant(db, ids.orgB, (tx) => tx.execute(sql`select count(*)::int as n from audit_log where organization_uuid = ${ids.orgA}`));
    expect((seen as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);
  });
});
