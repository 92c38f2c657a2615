import { describe, expect, it } from 'vitest';
import { prepared } from './statements.js';

/** A stand-in for a Drizzle query: records the names it is prepared under. */
function fakeQuery(built: string[]) {
  return (shape: { sortBy: string }) => {
    built.push(shape.sortBy);
    return { prepare: (name: string) => ({ name, shape }) };
  };
}

describe('prepared statements by shape', () => {
  it('builds a shape once per database, under one stable name, and another shape under another', () => {
    const built: string[] = [];
    const database = {};
    const first = prepared(database, 'essai_liste', { sortBy: 'lastName' }, fakeQuery(built));
    const again = prepared(database, 'essai_liste', { sortBy: 'lastName' }, fakeQuery(built));
    const other = prepared(database, 'essai_liste', { sortBy: '-lastName' }, fakeQuery(built));
    expect(again).toBe(first);
    expect(built).toEqual(['lastName', '-lastName']);
    expect(first.name).toMatch(/^essai_liste_\d+$/);
    expect(other.name).toMatch(/^essai_liste_\d+$/);
    expect(other.name).not.toBe(first.name);
  });

  it('gives a shape the same name on every database (the SQL behind a name never changes)', () => {
    const onA = prepared({}, 'essai_partage', { sortBy: 'email' }, fakeQuery([]));
    const built: string[] = [];
    const onB = prepared({}, 'essai_partage', { sortBy: 'email' }, fakeQuery(built));
    expect(built).toEqual(['email']);
    expect(onB.name).toBe(onA.name);
  });
});
