import { QueryClient } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import toast, { useToasterStore } from 'react-hot-toast/headless';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from './api.ts';
import { failureCaches, type FailureMeta } from './query-errors.ts';

// Failures go through a real QueryClient with the app's caches; the toasts are read from
// react-hot-toast's own store, as the app's toaster reads them.
let client: QueryClient;
beforeEach(() => {
  client = new QueryClient({ ...failureCaches(), defaultOptions: { queries: { retry: false } } });
});
afterEach(() => {
  act(() => toast.remove());
  client.clear();
});

const shownToasts = () => {
  const { result } = renderHook(() => useToasterStore());
  return result.current.toasts.filter((shown) => shown.visible).map((shown) => [shown.type, shown.message]);
};

let keys = 0;
async function failQuery(error: Error, meta?: FailureMeta) {
  await act(() =>
    client
      .fetchQuery({
        queryKey: ['failing', (keys += 1)],
        queryFn: () => Promise.reject(error),
        meta,
      })
      .catch(() => undefined),
  );
}

async function failMutation(error: Error, meta?: FailureMeta) {
  await act(() =>
    client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(error), meta })
      .execute(undefined)
      .catch(() => undefined),
  );
}

describe('the failure toast', () => {
  it("shows a failed query's and a failed mutation's message", async () => {
    await failQuery(new ApiError('The list could not be loaded.', 'INTERNAL_ERROR'));
    await failMutation(new ApiError('The task could not be saved.', 'INTERNAL_ERROR'));

    expect(shownToasts()).toEqual([
      ['error', 'The task could not be saved.'],
      ['error', 'The list could not be loaded.'],
    ]);
  });

  it('shows one toast for the same message, however many failures say it', async () => {
    await failQuery(new ApiError('Cannot reach the server.', 'UNREACHABLE'));
    await failQuery(new ApiError('Cannot reach the server.', 'UNREACHABLE'));
    await failMutation(new ApiError('Cannot reach the server.', 'UNREACHABLE'));

    expect(shownToasts()).toEqual([['error', 'Cannot reach the server.']]);
  });

  it('shows none once the session has ended: the login says why', async () => {
    for (const code of ['NOT_SIGNED_IN', 'SESSION_EXPIRED', 'SIGNED_OUT', 'ACCOUNT_REMOVED'] as const) {
      await failQuery(new ApiError(`Ended: ${code}`, code));
      await failMutation(new ApiError(`Ended: ${code}`, code));
    }

    expect(shownToasts()).toEqual([]);
  });

  it('shows none when the screen says the failure itself (errorToast: false)', async () => {
    await failQuery(new ApiError('The list could not be loaded.', 'INTERNAL_ERROR'), { errorToast: false });
    await failMutation(new ApiError('The task could not be saved.', 'INTERNAL_ERROR'), { errorToast: false });

    expect(shownToasts()).toEqual([]);
  });

  it("shows the screen's own wording when its meta gives one", async () => {
    await failQuery(new ApiError('Internal error, reference 42', 'INTERNAL_ERROR'), {
      errorToast: 'Failed to fetch students',
    });
    await failQuery(new ApiError('Cannot reach the server.', 'UNREACHABLE'), {
      errorToast: 'Failed to fetch students',
    });

    expect(shownToasts()).toEqual([['error', 'Failed to fetch students']]);
  });
});
