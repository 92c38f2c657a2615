import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CGU_VERSION } from '@flotte/contract';
import { users } from '../../db/schema/users.js';
import { createUser } from '../../seed/factories.js';
import { createTestApp, type TestContext } from '../../../test/test-app.js';

let t: TestContext;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

const accept = (token: string, payload: unknown) => t.as(token, { method: 'POST', url: '/api/user/cgu', payload: payload as object });
const acceptance = (uuid: string) =>
  t.seed(async (tx) => (await tx.select({ version: users.cguAcceptedVersion, at: users.cguAcceptedAt }).from(users).where(eq(users.uuid, uuid)))[0]!);

describe('terms of use (CGU)', () => {
  it('a user who never accepted them says so in the profile, accepts the version in force, and the date is kept', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'nouvelle@exemple.fr', cguAcceptedVersion: null }));
    const token = await t.login(own.email);
    const me = await t.as(token, { method: 'GET', url: '/api/auth/me' });
    expect(me.json().cguAcceptedVersion).toBeNull();

    const before = Date.now();
    const accepted = await accept(token, { version: CGU_VERSION });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ uuid: own.uuid, cguAcceptedVersion: CGU_VERSION });
    const stored = await acceptance(own.uuid);
    expect(stored.version).toBe(CGU_VERSION);
    expect(stored.at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await t.as(token, { method: 'GET', url: '/api/auth/me' })).json().cguAcceptedVersion).toBe(CGU_VERSION);
  });

  it('refuses an old or unknown version, an extra field, a missing body, with French messages, and records nothing', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'ancienne@exemple.fr', cguAcceptedVersion: '2025-01-01' }));
    const token = await t.login(own.email);
    for (const [payload, message] of [
      [{ version: '2025-01-01' }, 'Ces conditions ne sont plus les dernières : rechargez la page pour lire la version en vigueur.'],
      [{ version: CGU_VERSION, userUuid: own.uuid }, 'Champ non reconnu : userUuid'],
      [{}, 'La version des conditions est obligatoire'],
    ] as const) {
      const response = await accept(token, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().details.map((d: { message: string }) => d.message)).toContain(message);
    }
    expect((await acceptance(own.uuid)).version).toBe('2025-01-01');
  });

  it('needs a session', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/user/cgu', payload: { version: CGU_VERSION } });
    expect(response.statusCode).toBe(401);
  });

  it('users made by the seed and the factories have accepted the version in force', async () => {
    const own = await t.seed((tx) => createUser(tx, { email: 'seme@exemple.fr' }));
    expect((await acceptance(own.uuid)).version).toBe(CGU_VERSION);
  });
});
