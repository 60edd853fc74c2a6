/** See node-version.mjs. */
export const SUPPORTED_NODE_RANGE: string;
export function isSupportedNodeVersion(version: string): boolean;
export function nodeVersionProblem(version?: string): string | undefined;
export function exitUnlessSupportedNode(version?: string): void;
