import { SCHOOL_STATUS_PATH } from '#shared/contract/school-status-path';

/** What the landing page reads of GET /api/school: whether to lead to /setup, whether to name the demo. */
export type LandingSchoolStatus = { isSetUpNeeded: boolean; hasDemo: boolean };

const UNKNOWN: LandingSchoolStatus = { isSetUpNeeded: false, hasDemo: false };

/**
 * Whether this server still has no school (issue 19's first run), and whether the demo school is
 * there (decision 050). Plain fetch, not call(): the prerendered page has no zod nor the app's
 * client (decision 014). Unknown (offline, an old server) counts as set up without a demo: the
 * page stays as it is, naming no demo password. Apart from school-setup-status.ts, which every
 * auth page loads: they need no word of the demo.
 */
export async function readLandingSchoolStatus(): Promise<LandingSchoolStatus> {
  try {
    const answer = await fetch(SCHOOL_STATUS_PATH, { headers: { accept: 'application/json' } });
    if (!answer.ok) return UNKNOWN;
    const body: unknown = await answer.json();
    const data = body && typeof body === 'object' && 'data' in body ? body.data : null;
    if (!data || typeof data !== 'object') return UNKNOWN;
    return {
      isSetUpNeeded: 'isSetUp' in data && data.isSetUp === false,
      hasDemo: 'hasDemo' in data && data.hasDemo === true,
    };
  } catch {
    return UNKNOWN;
  }
}

/** The marker of the landing page's "Try the demo" parts, hidden (and without its passwords) until the demo is there. */
export const DEMO_SCHOOL_MARKER = 'data-demo-school';
/** The marker of a demo credential's <code>, empty in the prerendered page; its value names which. */
export const DEMO_CREDENTIAL_MARKER = 'data-demo-credential';
