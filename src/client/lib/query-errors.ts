import { MutationCache, QueryCache } from '@tanstack/react-query';
import toast from 'react-hot-toast/headless';
import { ApiError, hasSessionEnded } from './api.ts';

/**
 * How a query's or a mutation's failure reaches the person (its `meta`): by default the
 * cache's one handler shows the error's message as a toast (SPEC §8).
 */
export type FailureMeta = {
  /**
   * `false`: the screen says it itself (inline, a redirect to the login, the console), so no
   * toast. A text: this message instead of the server's (SPEC §8's own wordings).
   */
  errorToast?: false | string;
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: FailureMeta;
    mutationMeta: FailureMeta;
  }
}

/** The toast of one failure; the same message again (a retry, two lists) replaces it instead of stacking. */
export function toastFailure(error: Error, meta: FailureMeta | undefined): void {
  if (meta?.errorToast === false) return;
  // A refused session: the guard goes to the login, whose notice says why (decision 017).
  if (hasSessionEnded(error)) return;
  // The student guard shows the choose-a-new-password screen instead (decision 033).
  if (error instanceof ApiError && error.code === 'PASSWORD_CHANGE_REQUIRED') return;
  const message = meta?.errorToast ?? error.message;
  toast.error(message, { id: `failure:${message}` });
}

/** The caches of the app's QueryClient: every failure is told in one place. */
export const failureCaches = () => ({
  queryCache: new QueryCache({ onError: (error, query) => toastFailure(error, query.meta) }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => toastFailure(error, mutation.meta),
  }),
});
