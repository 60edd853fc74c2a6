/**
 * GET /api/school's path on its own, without zod: the prerendered landing page asks whether the
 * school is set up, and its few kB cannot carry the contract's schemas (decision 014).
 */
export const SCHOOL_STATUS_PATH = '/api/school';
