import { QueryClient } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import toast, { useToasterStore } from 'react-hot-toast/headless';
import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_ENDED_CODES } from '#shared/error-codes';
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

// The client's texts are worded in the active locale: English, the code's own.
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('the failure toast', () => {
  it("shows a failed query's and a failed mutation's message", async () => {
    const listFailure = new ApiError('INTERNAL_ERROR', { requestId: 'list-1' });
    const taskFailure = new ApiError('TASK_LIST_CHANGED');
    await failQuery(listFailure);
    await failMutation(taskFailure);

    expect(shownToasts()).toEqual([
      ['error', taskFailure.message],
      ['error', listFailure.message],
    ]);
  });

  it('shows one toast for the same message, however many failures say it', async () => {
    await failQuery(new ApiError('UNREACHABLE'));
    await failQuery(new ApiError('UNREACHABLE'));
    await failMutation(new ApiError('UNREACHABLE'));

    expect(shownToasts()).toEqual([['error', new ApiError('UNREACHABLE').message]]);
  });

  it('shows none once the session has ended: the login says why', async () => {
    for (const code of SESSION_ENDED_CODES) {
      await failQuery(new ApiError(code));
      await failMutation(new ApiError(code));
    }

    expect(shownToasts()).toEqual([]);
  });

  it('shows none when the screen says the failure itself (errorToast: false)', async () => {
    await failQuery(new ApiError('INTERNAL_ERROR'), { errorToast: false });
    await failMutation(new ApiError('TASK_LIST_CHANGED'), { errorToast: false });

    expect(shownToasts()).toEqual([]);
  });

  it("shows the screen's own wording when its meta gives one", async () => {
    await failQuery(new ApiError('INTERNAL_ERROR', { requestId: '42' }), {
      errorToast: 'Failed to fetch students',
    });
    await failQuery(new ApiError('UNREACHABLE'), {
      errorToast: 'Failed to fetch students',
    });

    expect(shownToasts()).toEqual([['error', 'Failed to fetch students']]);
  });
});
