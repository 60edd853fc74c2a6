import { useEffect, useState } from 'react';

/** A module loaded with import() once for the whole page, shared by every component that needs it. */
export type LazyModule<T> = { load(): Promise<T>; loaded: T | undefined };

/** One load for the page; a failed load is tried again the next time it is needed. */
export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined;
  const module: LazyModule<T> = {
    loaded: undefined,
    load: () =>
      (loading ??= importer().then(
        (value) => (module.loaded = value),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
  };
  return module;
}

/**
 * The module's export once `isNeeded` and loaded (at once when an earlier component loaded it);
 * undefined until then, or when the load fails: the caller shows its fallback (the text as typed).
 */
export function useLazyModule<T>(module: LazyModule<T>, isNeeded: boolean): T | undefined {
  const [state, setState] = useState<{ value: T } | undefined>(() =>
    module.loaded === undefined ? undefined : { value: module.loaded },
  );
  useEffect(() => {
    if (!isNeeded || state) return;
    let isCurrent = true;
    module.load().then(
      (value) => {
        if (isCurrent) setState({ value });
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [module, isNeeded, state]);
  return state?.value;
}
