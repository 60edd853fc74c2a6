/** See client-build.mjs. */
export function ensureClientBuild(options?: { whenStale?: boolean; quiet?: boolean }): void;
