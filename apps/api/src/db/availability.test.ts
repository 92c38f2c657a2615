import { describe, expect, it } from 'vitest';
import { databaseTroubleOf, DependencyUnavailableError } from './availability.js';
import { OverloadedError } from './fair-share.js';

/** Which errors answer 503 (saturated or unreachable database) rather than 500 (decisions 011 and 020). */

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** As Drizzle wraps the driver's error. */
const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause });

describe('databaseTroubleOf', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET', 'read ECONNRESET')],
    ['a host out of reach', withCode('EHOSTUNREACH')],
    ['a name that does not resolve', withCode('ENOTFOUND')],
    ['the server shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['the server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection exception (08006)', withCode('08006')],
    ['a connection ended under a query', new Error('Connection terminated unexpectedly')],
    ['a connection not made in time', new Error('Connection terminated due to connection timeout')],
    ['a client that lost its connection', new Error('Client has encountered a connection error and is not queryable')],
    ['Redis out of reach', new DependencyUnavailableError('redis', new Error('Connection is closed.'))],
  ])('%s: unavailable, also wrapped by Drizzle', (_name, error) => {
    expect(databaseTroubleOf(error)?.kind).toBe('unavailable');
    expect(databaseTroubleOf(wrapped(error))?.kind).toBe('unavailable');
  });

  it('finds a refusal among the attempts on several addresses (AggregateError)', () => {
    const aggregate = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed');
    expect(databaseTroubleOf(wrapped(aggregate))).toEqual({ kind: 'unavailable', reason: 'unreachable (ECONNREFUSED)' });
  });

  it.each([
    ['no turn of the fair share', new OverloadedError(5_000), 'no database turn in time'],
    ['a statement timeout (57014)', withCode('57014', 'canceling statement due to statement timeout'), 'statement timeout'],
    ['no pooled connection in time', new Error('timeout exceeded when trying to connect'), 'no pooled connection in time'],
  ])('%s: overloaded', (_name, error, reason) => {
    expect(databaseTroubleOf(wrapped(error))).toEqual({ kind: 'overloaded', reason });
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a permission refused by the database', withCode('42501')],
    ['a defect of the code', new TypeError("Cannot read properties of undefined (reading 'uuid')")],
    ['not an error at all', 'texte'],
    ['nothing', undefined],
  ])('%s: none (answered as it is, a 500 for a defect)', (_name, error) => {
    expect(databaseTroubleOf(error)).toBeNull();
  });

  it('stops on an error that is its own cause', () => {
    const error = new Error('boucle') as Error & { cause?: unknown };
    error.cause = error;
    expect(databaseTroubleOf(error)).toBeNull();
  });
});
