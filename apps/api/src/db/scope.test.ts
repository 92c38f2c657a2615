import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/test-app.js';
import type { DatabaseHandle } from './client.js';
import { drivers } from './schema/drivers.js';
import { afterCommit, readTenant, withSystem, withTenant } from './scope.js';
import { createOrganization } from '../seed/factories.js';

let database: DatabaseHandle;
let org: string;

beforeAll(async () => {
  database = await createTestDatabase();
  org = await withSystem(database.db, async (tx) => (await createOrganization(tx, { title: 'Société Hook' })).uuid);
});
afterAll(() => database?.close());

describe('afterCommit', () => {
  it('runs once the transaction has committed, when its writes are visible to another one', async () => {
    const seen: number[] = [];
    let registered = false;
    const checks: Promise<number>[] = [];
    await withTenant(database.db, org, async (tx) => {
      await tx.insert(drivers).values({ organizationUuid: org, firstName: 'Après', lastName: 'Validation' });
      registered = afterCommit(tx, () => {
        seen.push(1);
        checks.push(readTenant(database.db, org, async (read) => (await read.select().from(drivers).where(eq(drivers.lastName, 'Validation'))).length));
      });
      // Not before the commit.
      expect(seen).toEqual([]);
    });
    expect(registered).toBe(true);
    expect(seen).toEqual([1]);
    expect(await Promise.all(checks)).toEqual([1]);
  });

  it('never runs after a rollback; withSystem transactions have hooks too', async () => {
    const seen: string[] = [];
    await expect(
      withTenant(database.db, org, async (tx) => {
        afterCommit(tx, () => seen.push('tenant'));
        throw new Error('annulé');
      }),
    ).rejects.toThrow('annulé');
    await withSystem(database.db, async (tx) => void afterCommit(tx, () => seen.push('system')));
    expect(seen).toEqual(['system']);
  });

  it('answers false, and never runs the hook, for a transaction that is not a scope’s (a nested one)', async () => {
    const seen: string[] = [];
    let answer: boolean | undefined;
    await withTenant(database.db, org, (tx) => tx.transaction(async (nested) => void (answer = afterCommit(nested, () => seen.push('nested')))));
    expect(answer).toBe(false);
    expect(seen).toEqual([]);
  });
});
