import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { rememberStatementName, SQL_MAX_LENGTH, StatementEvents, statementShape } from './statement-timing.js';

describe('a statement\'s shape', () => {
  it('is its name when it has one, with its SQL', () => {
    expect(statementShape('select "uuid" from "drivers" where "last_name" = $1', 'drivers_list_7')).toEqual({
      name: 'drivers_list_7',
      sql: 'select "uuid" from "drivers" where "last_name" = $1',
    });
  });

  it('finds the name of a prepared statement by its SQL (PGlite is not told the name)', () => {
    rememberStatementName('select "uuid" from "vehicules" where "brand" = $1 -- essai', 'vehicules_list_3');
    expect(statementShape('select "uuid" from "vehicules" where "brand" = $1 -- essai').name).toBe('vehicules_list_3');
  });

  it('is otherwise its verb, its first table and a hash of the SQL: two shapes on a table stay apart', () => {
    const one = statementShape('SELECT "uuid" FROM "sinisters" WHERE "uuid" = $1');
    const other = statementShape('SELECT "uuid" FROM "sinisters" WHERE "reference" = $1');
    expect(one.name).toMatch(/^select sinisters #[0-9a-f]{8}$/);
    expect(other.name).toMatch(/^select sinisters #[0-9a-f]{8}$/);
    expect(other.name).not.toBe(one.name);
    expect(statementShape('insert into "drivers" ("first_name") values ($1)').name).toMatch(/^insert drivers #/);
    expect(statementShape('update "drivers" set "phone" = $1').name).toMatch(/^update drivers #/);
    expect(statementShape('begin').name).toBe('begin');
    expect(statementShape('COMMIT').name).toBe('commit');
  });

  it('never carries a literal written into the SQL, and stays short', () => {
    const shape = statementShape("select * from drivers where email = 'jean.dupont@exemple.fr' and note = 'l''essai'");
    expect(shape.sql).toBe("select * from drivers where email = '?' and note = '?'");
    const long = statementShape(`select ${Array.from({ length: 200 }, (_, i) => `"colonne_${i}"`).join(', ')} from "drivers"`);
    expect(long.sql.length).toBeLessThanOrEqual(SQL_MAX_LENGTH);
  });
});

describe('statement listeners', () => {
  it('are told each timing until they stop listening; one that throws does not stop the others', () => {
    const events = new StatementEvents();
    expect(events.active).toBe(false);
    const seen: number[] = [];
    const stopThrowing = events.subscribe(() => {
      throw new Error('flux fermé');
    });
    const stop = events.subscribe((timing) => seen.push(timing.ms));
    const timing = { name: 'begin', family: 'unnamed', code: null, sql: 'begin', ms: 3, organization: null, scope: null, failed: false };
    events.emit(timing);
    stop();
    stopThrowing();
    events.emit(timing);
    expect(seen).toEqual([3]);
    expect(events.active).toBe(false);
  });

  it('give a listener what it captured in the sender\'s context, not in the context the answer comes back in', async () => {
    const requests = new AsyncLocalStorage<string>();
    const events = new StatementEvents();
    const seen: [number, string | undefined][] = [];
    const plain: number[] = [];
    events.subscribe((timing) => plain.push(timing.ms));
    const stop = events.subscribeFromSender(() => requests.getStore(), (timing, request) => seen.push([timing.ms, request]));
    // Two statements sent by two requests; their answers come back in a third context (a socket's).
    const sent = requests.run('requête A', () => events.capture());
    const sentB = requests.run('requête B', () => events.capture());
    const timing = { name: 'select', family: 'unnamed', code: null, sql: 'select 1', ms: 1, organization: null, scope: null, failed: false };
    await requests.run('connexion', async () => {
      events.emit({ ...timing, ms: 2 }, sentB);
      events.emit(timing, sent);
    });
    expect(seen).toEqual([
      [2, 'requête B'],
      [1, 'requête A'],
    ]);
    expect(plain).toEqual([2, 1]);
    // Without a listener that captures, nothing is captured; a capture that throws does not stop the query.
    stop();
    expect(events.capture()).toBeNull();
    events.subscribeFromSender(() => {
      throw new Error('magasin fermé');
    }, () => undefined);
    expect(() => events.capture()).not.toThrow();
  });
});
