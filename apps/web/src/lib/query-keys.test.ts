import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';
import { invalidateAfterWrite, queryKeys } from './query-keys';

function seeded() {
  const queryClient = createQueryClient();
  const keys = {
    vehiculeList: queryKeys.vehicules.list({ page: 1 }),
    vehiculeChoices: queryKeys.vehicules.choices({ page: 1, limit: 200 }),
    vehiculeSearch: queryKeys.vehicules.choices({ page: 1, limit: 200, search: 'ab-12' }),
    driverList: queryKeys.drivers.list({ page: 1 }),
    driverChoices: queryKeys.drivers.choices({ page: 1, limit: 200 }),
    sinisterList: queryKeys.sinisters.list({ page: 1 }),
    sinisterCount: queryKeys.sinisters.count({ vehicule: 'x' }),
    sinister: queryKeys.sinisters.detail('x'),
    guarantees: queryKeys.guarantees,
  };
  for (const key of Object.values(keys)) queryClient.setQueryData(key, {});
  const stale = () =>
    Object.entries(keys)
      .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
      .map(([name]) => name);
  return { queryClient, stale };
}

describe('invalidateAfterWrite', () => {
  it('refreshes the claims and the claim form’s vehicle choices, searched ones too, after a vehicle write', () => {
    const { queryClient, stale } = seeded();
    invalidateAfterWrite(queryClient, 'vehicules');
    expect(stale()).toEqual(['vehiculeList', 'vehiculeChoices', 'vehiculeSearch', 'sinisterList', 'sinisterCount', 'sinister']);
  });

  it('refreshes the claims (they show the driver’s name) after a driver write', () => {
    const { queryClient, stale } = seeded();
    invalidateAfterWrite(queryClient, 'drivers');
    expect(stale()).toEqual(['driverList', 'driverChoices', 'sinisterList', 'sinisterCount', 'sinister']);
  });

  it('leaves the vehicles and drivers alone after a claim write', () => {
    const { queryClient, stale } = seeded();
    invalidateAfterWrite(queryClient, 'sinisters');
    expect(stale()).toEqual(['sinisterList', 'sinisterCount', 'sinister']);
  });
});
