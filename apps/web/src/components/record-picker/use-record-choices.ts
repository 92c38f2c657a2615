import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Choice, RecordChoices } from './record-choices';

/** The pause after the last keystroke before the server is searched. */
export const CHOICES_SEARCH_DEBOUNCE_MS = 250;

export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export type RecordChoicesState<TChoice> = {
  /**
   * `all`: every choice is held (the register holds up to `limit`), searched in the browser;
   * `search`: the register holds more, the server is searched as the person types;
   * `pending`: not known yet (first page loading or failed).
   */
  mode: 'pending' | 'all' | 'search';
  /** `all`: every choice. `search`: what the server found for `term` (none before a term is typed). */
  options: readonly TChoice[];
  /** `options` are the previous term's, shown while the new term's answer comes. */
  previous: boolean;
  /** How many choices the register holds (`capped`: at least that many). */
  total: number;
  capped: boolean;
  /** `search`: how many the server found for the term (`foundCapped`: at least that many); else `options.length`. */
  found: number;
  foundCapped: boolean;
  loading: boolean;
  searching: boolean;
  error: Error | null;
};

/**
 * The choices a picker shows for what the person typed (`term`): one request of up to
 * CHOICES_LIMIT choices first; when the register holds no more, that is every choice and a term
 * never asks the server again; beyond, each term (debounced 250 ms) is searched on the server.
 */
export function useRecordChoices<TChoice extends Choice>(choices: RecordChoices<TChoice>, term: string, enabled = true): RecordChoicesState<TChoice> {
  const first = useQuery({ ...choices.queryOptions(''), enabled });
  const held = first.data;
  const mode = !held ? 'pending' : held.total <= choices.limit && held.totalIsCapped !== true ? 'all' : 'search';
  const wanted = term.trim();
  const debounced = useDebouncedValue(wanted, CHOICES_SEARCH_DEBOUNCE_MS);
  const search = useQuery({
    ...choices.queryOptions(debounced),
    enabled: enabled && mode === 'search' && debounced !== '',
    // The previous term's choices stay (narrowed by the picker) until the new term's come.
    placeholderData: keepPreviousData,
  });

  const base = { total: held?.total ?? 0, capped: held?.totalIsCapped === true, found: 0, foundCapped: false };
  if (mode === 'pending') {
    return { ...base, mode, options: [], previous: false, loading: first.isPending && enabled, searching: false, error: first.error };
  }
  if (mode === 'all') {
    return { ...base, mode, options: held!.data, found: held!.data.length, previous: false, loading: false, searching: false, error: null };
  }
  if (wanted === '') {
    return { ...base, mode, options: [], previous: false, loading: false, searching: false, error: null };
  }
  const answered = search.data !== undefined && !search.isPlaceholderData && debounced === wanted;
  return {
    ...base,
    mode,
    options: search.data?.data ?? [],
    found: answered ? search.data.total : 0,
    foundCapped: answered && search.data.totalIsCapped === true,
    previous: !answered,
    loading: !answered && !search.error,
    searching: !answered && !search.error,
    error: search.error,
  };
}
