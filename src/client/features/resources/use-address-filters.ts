import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { FILTER_DEBOUNCE_MS, withFilter } from './resource-filters.ts';

/** The screen's filters in the address, so a reload or a shared link keeps them. */
export function useAddressFilters() {
  const [searchParams, setSearchParams] = useSearchParams();
  // Filter changes replace the address instead of stacking history entries. They start from
  // the address as it is now, not as the last render saw it: a debounced search landing
  // right after a class was picked would otherwise put the old class back.
  const setFilter = useCallback(
    (name: string, value: string) =>
      setSearchParams(() => withFilter(new URLSearchParams(window.location.search), name, value), { replace: true }),
    [setSearchParams],
  );
  return { searchParams, setFilter };
}

/**
 * A text filter's box: what is typed shows at once and reaches the address
 * (and so the server) once typing pauses; `commit` sends it at once (Enter).
 */
export function useDebouncedFilterText(
  name: string,
  addressValue: string,
  setFilter: (name: string, value: string) => void,
) {
  const [text, setText] = useState(addressValue);
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === addressValue) return;
    const timer = setTimeout(() => setFilter(name, trimmed), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, addressValue, name, setFilter]);
  return { text, setText, commit: () => setFilter(name, text.trim()) };
}
