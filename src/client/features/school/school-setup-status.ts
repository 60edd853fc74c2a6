import { SCHOOL_STATUS_PATH } from '#shared/contract/school-status-path';

/**
 * Whether this server still has no school (issue 19's first run), for the landing page, which
 * then leads to /setup. Plain fetch, not call(): the prerendered page has no zod nor the app's
 * client (decision 014). Unknown (offline, an old server) counts as set up: the page stays as it is.
 */
export async function isSchoolSetupNeeded(): Promise<boolean> {
  try {
    const answer = await fetch(SCHOOL_STATUS_PATH, { headers: { accept: 'application/json' } });
    if (!answer.ok) return false;
    const body: unknown = await answer.json();
    const data = body && typeof body === 'object' && 'data' in body ? body.data : null;
    return Boolean(data && typeof data === 'object' && 'isSetUp' in data && data.isSetUp === false);
  } catch {
    return false;
  }
}

/** The marker of the landing page's "Set up your school" block, hidden until the answer says so. */
export const SCHOOL_SETUP_MARKER = 'data-school-setup';
