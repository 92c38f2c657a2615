import { ListSinistersQuerySchema, ListVehiculesQuerySchema } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { claimsUrl, monthInWindow, twelveMonthsTo, vehiclesUrl } from './dashboard-links';

const params = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('the figures’ links', () => {
  it('open the claims of the window, declared or not, by guarantee or responsibility', () => {
    const window = { startDate: '2026-05-25', endDate: '2026-11-25' };
    expect(claimsUrl(window)).toBe('/sinisters?startDate=2026-05-25&endDate=2026-11-25');
    expect(claimsUrl({ ...window, declared: 'all' })).toBe('/sinisters?startDate=2026-05-25&endDate=2026-11-25');
    expect(claimsUrl({ ...window, declared: 'declared' })).toBe('/sinisters?startDate=2026-05-25&endDate=2026-11-25&showDeclared=true');
    expect(claimsUrl({ ...window, declared: 'notDeclared' })).toBe('/sinisters?startDate=2026-05-25&endDate=2026-11-25&showNotDeclared=true');
    const guarantee = '0b7d5f7e-3c1a-4d2b-9f1e-2a3b4c5d6e7f';
    expect(params(claimsUrl({ ...window, guarantee, responsible: 'me' }))).toEqual({ ...window, garantee: guarantee, responsible: 'me' });
  });

  it('open one driver’s at-fault claims by the driver’s uuid, not by a name search (namesakes)', () => {
    const driver = 'd1a2b3c4-0000-4000-8000-000000000007';
    const window = { startDate: '2025-11-26', endDate: '2026-11-25' };
    expect(claimsUrl({ ...window, responsible: 'me', driver })).toBe(`/sinisters?startDate=2025-11-26&endDate=2026-11-25&responsible=me&driver=${driver}`);
  });

  it('use only the names the registers’ APIs accept (and their screens keep in the URL)', () => {
    const guarantee = '0b7d5f7e-3c1a-4d2b-9f1e-2a3b4c5d6e7f';
    const query = params(claimsUrl({ startDate: '2026-01-01', endDate: '2026-01-31', declared: 'declared', guarantee, responsible: 'other', driver: 'd1a2b3c4-0000-4000-8000-000000000007' }));
    for (const name of Object.keys(query)) expect(Object.keys(ListSinistersQuerySchema.shape)).toContain(name);
    expect(ListSinistersQuerySchema.safeParse(query).success).toBe(true);
    const vehicles = params(vehiclesUrl('2026-01-01', '2026-06-30'));
    for (const name of Object.keys(vehicles)) expect(Object.keys(ListVehiculesQuerySchema.shape)).toContain(name);
    expect(ListVehiculesQuerySchema.safeParse(vehicles).success).toBe(true);
  });

  it('open the vehicles present on a day, or during a period', () => {
    expect(vehiclesUrl('2026-11-25')).toBe('/vehicules?start=2026-11-25&end=2026-11-25');
    expect(vehiclesUrl('2026-01-01', '2026-11-25')).toBe('/vehicules?start=2026-01-01&end=2026-11-25');
  });

  it('bound a month’s bar to the window', () => {
    const window = { startDate: '2026-05-25', endDate: '2026-11-25' };
    expect(monthInWindow('2026-05', window)).toEqual({ startDate: '2026-05-25', endDate: '2026-05-31' });
    expect(monthInWindow('2026-06', window)).toEqual({ startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(monthInWindow('2026-11', window)).toEqual({ startDate: '2026-11-01', endDate: '2026-11-25' });
    expect(monthInWindow('2024-02', { startDate: '2024-01-01', endDate: '2024-12-31' })).toEqual({ startDate: '2024-02-01', endDate: '2024-02-29' });
  });

  it('count the drivers’ at-fault claims over the 12 months ending on the window’s last day', () => {
    expect(twelveMonthsTo('2026-11-25')).toEqual({ startDate: '2025-11-26', endDate: '2026-11-25' });
    expect(twelveMonthsTo('2026-02-28')).toEqual({ startDate: '2025-03-01', endDate: '2026-02-28' });
  });
});
