import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A stand-in for fetch, installed around each test of the calling describe block (with an
 * empty localStorage: no session), for the API client's unit tests in the node project.
 */
export function useFetchStandIn() {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('localStorage', { getItem: () => null });
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });
  return fetchMock;
}
