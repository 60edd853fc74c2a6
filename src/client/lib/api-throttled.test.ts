import { describe, expect, it } from 'vitest';
import { logInStudent, registerTeacher } from '#shared/contract/sign-in';
import { useFetchStandIn } from '../testing/fetch-stand-in.ts';
import { ApiError, call } from './api.ts';

/** The one HTTP client against a stand-in for fetch: what the forms receive when the server refuses. */
describe('call() when the server throttles', () => {
  const fetchMock = useFetchStandIn();

  const throttled = (message: string, retryAfter: string) =>
    new Response(JSON.stringify({ success: false, code: 'THROTTLED', message, data: null }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    });

  it("fails with the server's own message and code, and asks once: no automatic retry", async () => {
    const message = 'Too many sign-in attempts for this account. Try again in 4 minutes.';
    fetchMock.mockResolvedValue(throttled(message, '240'));
    const failure = await call(logInStudent, { body: { rollNumber: 'ada', password: 'secret-password' } }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message, code: 'THROTTLED' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('says the same for a registration refused for the network', async () => {
    const message = 'Too many accounts have been created from your network. Try again in 25 minutes.';
    fetchMock.mockResolvedValue(throttled(message, '1500'));
    const registration = {
      name: 'Ada',
      subject: 'Maths',
      email: 'ada@example.org',
      password: 'secret-password',
      invitation: 'an-invitation-code-of-32-letters',
    };
    await expect(call(registerTeacher, { body: registration })).rejects.toMatchObject({ message, code: 'THROTTLED' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
