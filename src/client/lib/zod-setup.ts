/**
 * Zod compiles fast object parsers with new Function() when it may, and probes
 * whether it may by trying: under our CSP (no 'unsafe-eval', decision 018) the
 * probe is refused and reported as a violation. The interpreted parsers are
 * plenty for forms, so the client runs zod "jitless".
 *
 * This is z.config({ jitless: true }) without importing zod: zod keeps its
 * configuration in globalThis.__zod_globalConfig (shared by every copy of zod
 * on a page) and reads it as each schema is built, so it must be set before any
 * schema module runs: main.tsx imports this file first. Importing zod here
 * instead would move part of it into the landing page's entry chunk (+3.6 kB).
 * zod-setup.test.ts checks that zod still reads it.
 */
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {}; // a module, so main.tsx can import it first
