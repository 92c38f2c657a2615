import { todayIso } from '@flotte/contract';
import { describe, expect, it } from 'vitest';
import { addMonths, defaultWindow, readWindow, windowQuery, writeWindow } from './dashboard-window';

describe('the dashboard window', () => {
  it('defaults to six months before today → today (SPEC 9)', () => {
    expect(defaultWindow('2026-11-25')).toEqual({ startDate: '2026-05-25', endDate: '2026-11-25' });
    // A day the target month lacks falls on its last day, as the API counts.
    expect(defaultWindow('2026-08-31')).toEqual({ startDate: '2026-02-28', endDate: '2026-08-31' });
    expect(defaultWindow('2024-08-31')).toEqual({ startDate: '2024-02-29', endDate: '2024-08-31' });
    const today = todayIso();
    expect(defaultWindow()).toEqual({ startDate: addMonths(today, -6), endDate: today });
  });

  it('reads the URL, the defaults for what it leaves out, says wrong or disorders', () => {
    const today = '2026-11-25';
    const read = (search: string) => readWindow(new URLSearchParams(search), today);
    expect(read('')).toEqual({ startDate: '2026-05-25', endDate: '2026-11-25', declared: 'all' });
    expect(read('startDate=2026-01-01&endDate=2026-03-31&isDeclared=true')).toEqual({ startDate: '2026-01-01', endDate: '2026-03-31', declared: 'declared' });
    expect(read('isDeclared=false').declared).toBe('notDeclared');
    expect(read('isDeclared=maybe').declared).toBe('all');
    expect(read('startDate=01/01/2026')).toEqual({ startDate: '2026-05-25', endDate: '2026-11-25', declared: 'all' });
    expect(read('startDate=2026-10-01&endDate=2026-09-01')).toEqual({ startDate: '2026-05-25', endDate: '2026-11-25', declared: 'all' });
  });

  it('writes only what differs from the defaults, and keeps the other parameters', () => {
    const today = '2026-11-25';
    const write = (search: string, window: Parameters<typeof writeWindow>[1]) => writeWindow(new URLSearchParams(search), window, today).toString();
    expect(write('', { startDate: '2026-05-25', endDate: '2026-11-25', declared: 'all' })).toBe('');
    expect(write('from=mail', { startDate: '2026-01-01', endDate: '2026-11-25', declared: 'notDeclared' })).toBe('from=mail&startDate=2026-01-01&isDeclared=false');
    expect(write('startDate=2026-01-01&isDeclared=true', { startDate: '2026-05-25', endDate: '2026-11-25', declared: 'all' })).toBe('');
  });

  it('asks the API for the window and the declared filter, nothing for all', () => {
    expect(windowQuery({ startDate: '2026-01-01', endDate: '2026-06-30', declared: 'all' })).toEqual({ startDate: '2026-01-01', endDate: '2026-06-30' });
    expect(windowQuery({ startDate: '2026-01-01', endDate: '2026-06-30', declared: 'declared' }).isDeclared).toBe('true');
    expect(windowQuery({ startDate: '2026-01-01', endDate: '2026-06-30', declared: 'notDeclared' }).isDeclared).toBe('false');
  });
});
