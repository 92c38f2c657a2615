import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInsurance } from '../../../test/fixtures/insurance.js';
import { deliveringTo, startTestSmtpServer, type TestSmtpServer } from '../../../test/smtp-server.js';
import type { TestContext } from '../../../test/test-app.js';
import { mailOutbox } from '../../db/schema/mail.js';
import { withTenant } from '../../db/scope.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { notifyFleetMovements } from './insurance-intermediary.service.js';
import { until as waitUntil } from '../../../test/until.js';

/**
 * Vehicles entering or leaving the fleet reach the current intermediary's production e-mail,
 * through the outbox and the job queue, on a real SMTP server; archiving tells nothing.
 */
let t: TestContext;
let smtp: TestSmtpServer;
let tokens: Awaited<ReturnType<typeof openInsurance>>['tokens'];
let alpha: { uuid: string };
const PRODUCTION = 'production@courtier.exemple.fr';

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  ({ t, tokens, alpha } = await openInsurance(deliveringTo(smtp)));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/**
 * A message is delivered by the job sent with it, or else by the minute's run: a message queued
 * while the previous delivery job still holds its one-second singleton waits for that run.
 */
const until = (condition: () => boolean) => waitUntil(condition, 75_000);

/** The messages queued for the intermediary so far (sent or not): what the changes asked to send. */
const queued = () => t.seed((tx) => tx.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.recipient, PRODUCTION)));
const receivedFor = (plate: string) => smtp.received.filter((m) => m.envelopeTo.includes(PRODUCTION) && m.parsed.subject?.includes(plate));

const vehicle = (over: Record<string, unknown> = {}) => ({ brand: 'Renault', model: 'Master', type: 'VUL', immatriculation: 'ab123cd', ...over });
const post = (token: string, payload: object) => t.as(token, { method: 'POST', url: '/api/vehicule', payload });
const patch = (token: string, uuid: string, payload: object) => t.as(token, { method: 'PATCH', url: `/api/vehicule/${uuid}`, payload });

describe('telling the intermediary of entries and exits', { timeout: 120_000 }, () => {
  it('tells nobody while the organization has no intermediary', async () => {
    const response = await post(tokens.adminA, vehicle({ immatriculation: 'AA-001-AA', entryDate: '2026-03-03' }));
    expect(response.statusCode).toBe(201);
    expect(await queued()).toEqual([]);
  });

  it('e-mails the production address, in French, when a vehicle enters the fleet with its entry date', async () => {
    const intermediary = await t.as(tokens.adminA, {
      method: 'POST',
      url: '/api/insurance-intermediary',
      payload: { name: 'Cabinet Lefèvre', contactLastName: 'Lefèvre', contactFirstName: 'Paul', email: 'paul@courtier.exemple.fr', productionEmail: PRODUCTION, startDate: '2025-01-01' },
    });
    expect(intermediary.statusCode).toBe(201);
    const response = await post(tokens.userA, vehicle({ entryDate: '2026-03-03' }));
    expect(response.statusCode).toBe(201);
    await until(() => receivedFor('AB-123-CD').length > 0);
    const [mail] = receivedFor('AB-123-CD');
    expect(mail!.parsed.subject).toBe('Entrée de flotte : AB-123-CD (Transports Alpha)');
    const text = mail!.parsed.text!;
    expect(text).toContain('Bonjour Paul Lefèvre,');
    expect(text).toContain('Camille Bernard vous informe que le véhicule AB-123-CD entre dans la flotte de Transports Alpha le 3 mars 2026.');
    expect(text).toContain('Véhicule : Renault Master');
    expect(text).toContain('Catégorie : VUL (utilitaire léger ≤ 3,5 t)');
    expect(text).toContain("Date d'entrée : 3 mars 2026");
    expect(text).toContain("Merci de l'ajouter au contrat d'assurance de la flotte.");
    expect(text).toContain('https://flotte.exemple.fr/vehicules');
  });

  it('e-mails an exit when an exit date is set, but not for a corrected date, nor for archiving', async () => {
    const created = (await post(tokens.adminA, vehicle({ immatriculation: 'EF-456-GH', entryDate: '2026-01-10' }))).json();
    await until(() => receivedFor('EF-456-GH').length === 1);
    // A correction of a date already set moves nothing.
    expect((await patch(tokens.adminA, created.uuid, { entryDate: '2026-01-11', brand: 'Peugeot' })).statusCode).toBe(200);
    expect((await patch(tokens.adminA, created.uuid, { exitDate: '2026-04-30' })).statusCode).toBe(200);
    await until(() => receivedFor('EF-456-GH').length === 2);
    const exit = receivedFor('EF-456-GH').find((m) => m.parsed.subject!.startsWith('Sortie'))!;
    expect(exit.parsed.subject).toBe('Sortie de flotte : EF-456-GH (Transports Alpha)');
    expect(exit.parsed.text).toContain('Jeanne Roux vous informe que le véhicule EF-456-GH sort de la flotte de Transports Alpha le 30 avril 2026.');
    expect(exit.parsed.text).toContain('Merci de le retirer du contrat');
    expect(exit.parsed.text).toContain('Véhicule : Peugeot Master');

    const other = (await post(tokens.adminA, vehicle({ immatriculation: 'JK-789-LM' }))).json();
    expect((await t.as(tokens.adminA, { method: 'DELETE', url: `/api/vehicule/${other.uuid}?exitDate=2026-05-01` })).statusCode).toBe(200);
    const subjects = (await queued()).map((m) => m.subject);
    expect(subjects.filter((s) => s.includes('EF-456-GH'))).toHaveLength(2);
    // Created without an entry date, archived: nothing at all.
    expect(subjects.some((s) => s.includes('JK-789-LM'))).toBe(false);
  });

  it('e-mails when a draft is completed with its entry date, and sends nothing for a refused change', async () => {
    const draft = (await t.as(tokens.adminA, { method: 'POST', url: '/api/vehicule/create-empty' })).json();
    expect((await patch(tokens.adminA, draft.uuid, { ...vehicle({ immatriculation: 'NP-321-QR' }), entryDate: '2026-02-01' })).statusCode).toBe(200);
    await until(() => receivedFor('NP-321-QR').length === 1);
    const before = (await queued()).length;
    // Same plate as an active vehicle: 409, the transaction rolls back, the e-mail with it.
    const refused = await post(tokens.adminA, vehicle({ immatriculation: 'NP-321-QR', entryDate: '2026-02-02' }));
    expect(refused.statusCode).toBe(409);
    expect((await queued()).length).toBe(before);
  });

  it('sends one e-mail listing every vehicle of a bulk change', async () => {
    const ctx = { userUuid: (await t.as(tokens.adminA, { method: 'GET', url: '/api/auth/me' })).json().uuid } as AuthContext;
    const sent = await withTenant(t.database.db, alpha.uuid, (tx) =>
      notifyFleetMovements(tx, ctx, { mail: t.app.mail, baseUrl: 'https://flotte.exemple.fr' }, [
        { movement: 'entry', immatriculation: 'GA100ZZ', brand: 'Dacia', model: 'Sandero', type: 'VP', date: '2026-06-01' },
        { movement: 'entry', immatriculation: 'GA101ZZ', brand: 'Dacia', model: 'Duster', type: 'VP', date: '2026-06-01' },
        { movement: 'exit', immatriculation: 'GA102ZZ', brand: 'Iveco', model: 'Daily', type: 'PL', date: '2026-06-02' },
      ]),
    );
    expect(sent).toBe(true);
    const isBulk = (m: (typeof smtp.received)[number]) => m.envelopeTo.includes(PRODUCTION) && m.parsed.subject!.startsWith('Mouvements');
    await until(() => smtp.received.some(isBulk));
    await new Promise((r) => setTimeout(r, 1_000));
    const bulk = smtp.received.filter(isBulk);
    expect(bulk).toHaveLength(1);
    expect(bulk[0]!.parsed.subject).toBe('Mouvements de flotte : 2 entrées et 1 sortie (Transports Alpha)');
    const text = bulk[0]!.parsed.text!;
    expect(text).toContain('Jeanne Roux vous informe des mouvements suivants dans la flotte de Transports Alpha (2 entrées et 1 sortie) :');
    expect(text).toContain('GA-100-ZZ — Dacia Sandero, VP (véhicule particulier) : entrée le 1er juin 2026');
    expect(text).toContain('GA-101-ZZ — Dacia Duster, VP (véhicule particulier) : entrée le 1er juin 2026');
    expect(text).toContain('GA-102-ZZ — Iveco Daily, PL (poids lourd > 3,5 t) : sortie le 2 juin 2026');
    expect(smtp.received.filter((m) => m.parsed.subject?.includes('GA-10'))).toHaveLength(0);
  });
});
