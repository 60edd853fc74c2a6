/** See client-build.mjs. */
export const BUILD_STAMP: string;
export function hashBuildSources(root?: string): string;
export function clientBuildState(root?: string): { state: 'current' | 'stale' | 'missing'; reason: string };
export function productionBuildMessage(reason: string): string;
export function ensureClientBuild(options?: { quiet?: boolean; root?: string; mayBuild?: boolean }): void;
export function noBuildAtStartMessage(reason: string): string;
