import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../test/mock-fetch';
import { routes } from '../app/router';
import { apiHeld } from './api-client';
import { authStore } from './auth-store';
import { firstRequestOf, startFirstRequests } from './first-requests';
import { DRIVERS_VIEW, firstRequest as driversFirstRequest } from '../features/drivers/drivers-view';
import { SINISTERS_VIEW, firstRequest as sinistersFirstRequest } from '../features/sinisters/sinisters-view';
import { VEHICULES_VIEW, firstRequest as vehiculesFirstRequest } from '../features/vehicules/vehicules-view';
import { todayIso } from './format';

const page = { data: [], page: 1, nbOfPages: 0, total: 0 };
const urlOf = (request: Request) => new URL(request.url);

describe('a cold load’s first requests', () => {
  it('asks a register’s first page as soon as the token is there, and the screen takes that answer', async () => {
    const { calls } = mockFetch([{ path: '/api/sinister', body: page }]);
    authStore.setToken('token-1');
    await startFirstRequests(routes, { pathname: '/sinisters', search: '?search=Lyon&page=2&responsible=me' }, Promise.resolve(true));
    expect(calls).toHaveLength(1);
    const asked = urlOf(calls[0]!);
    const today = todayIso();
    expect(Object.fromEntries(asked.searchParams)).toEqual({
      page: '2',
      limit: '10',
      sortBy: '-sinisterDate',
      search: 'Lyon',
      responsible: 'me',
      startDate: `${today.slice(0, 4)}-01-01`,
      endDate: today,
    });
    // What the screen asks for the same URL (useRegisterList builds it from the same view): no second request.
    await apiHeld(asked.pathname, { query: Object.fromEntries(asked.searchParams) });
    expect(calls).toHaveLength(1);
  });

  it('asks each register’s default first page at its own path', async () => {
    for (const [view, firstRequest, expected] of [
      [DRIVERS_VIEW, driversFirstRequest, { page: 1, limit: 10, sortBy: 'lastName' }],
      [VEHICULES_VIEW, vehiculesFirstRequest, { page: 1, limit: 10, sortBy: 'immatriculation' }],
      [SINISTERS_VIEW, sinistersFirstRequest, { page: 1, limit: 10, sortBy: '-sinisterDate', startDate: `${todayIso().slice(0, 4)}-01-01`, endDate: todayIso() }],
    ] as const) {
      expect(firstRequest(new URLSearchParams())).toEqual({ path: view.path, query: expected });
    }
    // An unknown sort or archive value in the URL falls back as the screen does.
    expect(driversFirstRequest(new URLSearchParams('sortBy=password&archived=only'))).toEqual({
      path: '/api/driver',
      query: { page: 1, limit: 10, sortBy: 'lastName', onlyArchived: 'true' },
    });
  });

  it('asks nothing without a session, on a route that declares no first request, or when its module fails', async () => {
    const { calls } = mockFetch([]);
    await startFirstRequests(routes, { pathname: '/drivers', search: '' }, Promise.resolve(false));
    await startFirstRequests(routes, { pathname: '/dashboard', search: '' }, Promise.resolve(true));
    const failing: RouteObject[] = [{ path: '/x', handle: firstRequestOf(() => Promise.reject(new Error('chunk gone'))) }];
    await startFirstRequests(failing, { pathname: '/x', search: '' }, Promise.resolve(true));
    expect(calls).toEqual([]);
  });
});
