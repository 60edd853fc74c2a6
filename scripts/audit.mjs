// npm run audit: `npm audit --omit=dev` with a verdict CI can use (issue 9).
//
// Fails (exit 1) on any high or critical advisory for a package the app runs with. When the
// advisory service cannot be reached (some networks, this project's own CI machine among
// them, allow the npm registry's packages but not its audit endpoint), it says so loudly and
// exits 0 with AUDIT_UNREACHABLE_OK=1, or 2 otherwise: a check that could not run is never
// reported as passed.
import { spawnSync } from 'node:child_process';

const NETWORK_ERRORS = new Set([
  'ENOTFOUND',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8' });
let report;
try {
  report = JSON.parse(result.stdout);
} catch {
  report = undefined;
}

const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const reason =
    report?.message ??
    report?.error?.summary ??
    (result.stderr.trim().split('\n').filter(Boolean).at(-1) || 'no answer');
  // Only a network or HTTP failure of the advisory service may be let through by
  // AUDIT_UNREACHABLE_OK; anything else (no lockfile, a broken install) is a failed check.
  const code = report?.code ?? report?.error?.code;
  const isUnreachable =
    (typeof report?.statusCode === 'number' && report.statusCode >= 400) ||
    NETWORK_ERRORS.has(code) ||
    [...NETWORK_ERRORS].some((name) => reason.includes(name));
  if (!isUnreachable) {
    console.error(`npm audit: FAILED to run (${reason}).`);
    process.exit(2);
  }
  console.error(`npm audit: NOT CHECKED — the advisory service could not be reached (${reason}).`);
  process.exit(process.env.AUDIT_UNREACHABLE_OK === '1' ? 0 : 2);
}

const serious = (counts.high ?? 0) + (counts.critical ?? 0);
console.log(
  `npm audit --omit=dev: ${counts.critical ?? 0} critical, ${counts.high ?? 0} high, ${counts.moderate ?? 0} moderate, ${counts.low ?? 0} low`,
);
for (const [name, entry] of Object.entries(report.vulnerabilities ?? {})) {
  if (entry.severity === 'high' || entry.severity === 'critical') {
    console.log(`  ${entry.severity}: ${name} ${entry.range ?? ''}`);
  }
}
process.exit(serious > 0 ? 1 : 0);
