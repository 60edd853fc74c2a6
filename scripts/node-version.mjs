// The Node versions StudyHall runs on, checked before anything else loads (decision 052).
// The floor comes from the dependencies: Fastify's light-my-request requires the ESM-only
// `cookie` package, which needs require(esm) (Node 20.19 and 22.12 on); Vite, Rolldown and
// jsdom state ^20.19.0 || ^22.13.0 || >=24.0.0 (jsdom the strictest). package.json's
// `engines` says the same: node-version.test.ts keeps them equal.

/** The supported versions, as npm's `engines` writes them. */
export const SUPPORTED_NODE_RANGE = '^20.19.0 || ^22.13.0 || >=24.0.0';

/** Each supported line and its lowest version; a line without an entry is unsupported, `from: 24` and on all are. */
const SUPPORTED_LINES = [
  { major: 20, minor: 19 },
  { major: 22, minor: 13 },
];
const EVERY_MAJOR_FROM = 24;

/** Whether `version` ("20.19.0", "v22.13.1") is one StudyHall runs on. */
export function isSupportedNodeVersion(version) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if (major >= EVERY_MAJOR_FROM) return true;
  const line = SUPPORTED_LINES.find((supported) => supported.major === major);
  return line !== undefined && minor >= line.minor;
}

/** The message for an unsupported Node, or undefined when `version` is supported. */
export function nodeVersionProblem(version = process.versions.node) {
  if (isSupportedNodeVersion(version)) return undefined;
  return (
    `StudyHall needs Node.js ${SUPPORTED_NODE_RANGE}; this is Node.js ${version.replace(/^v/, '')}.\n` +
    'Install a current Node.js LTS (https://nodejs.org, or your package manager / nvm), then run this again.'
  );
}

/**
 * Ends the process with the message when this Node is not supported. The tests pretend an
 * older Node with STUDYHALL_NODE_VERSION_FOR_TESTS, as they cannot run one.
 */
export function exitUnlessSupportedNode(
  version = process.env.STUDYHALL_NODE_VERSION_FOR_TESTS || process.versions.node,
) {
  const problem = nodeVersionProblem(version);
  if (problem === undefined) return;
  console.error(problem);
  process.exit(1);
}
