import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiPost } from './api.ts';

/** The one HTTP client against a stand-in for fetch: what the forms receive when the server refuses. */
describe('apiRequest when the server throttles (429)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('localStorage', { getItem: () => null });
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });

  const throttled = (message: string, retryAfter: string) =>
    new Response(JSON.stringify({ success: false, message, data: null }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    });

  it("fails with the server's own message and status, and asks once: no automatic retry", async () => {
    const message = 'Too many sign-in attempts for this account. Try again in 4 minutes.';
    fetchMock.mockResolvedValue(throttled(message, '240'));
    const failure = await apiPost('/api/student/login', { rollNumber: 'ada', password: 'secret-password' }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message, status: 429 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('says the same for a registration refused for the network', async () => {
    const message = 'Too many accounts have been created from your network. Try again in 25 minutes.';
    fetchMock.mockResolvedValue(throttled(message, '1500'));
    await expect(apiPost('/api/teacher/register', {})).rejects.toMatchObject({ message, status: 429 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
