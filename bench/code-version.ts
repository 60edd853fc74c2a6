import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What a bench measured: the commit, and whether the working tree differed from it (in the code:
 * bench/results, where the benches write their records, does not count).
 */
export function codeVersion(): { commit: string; isDirty: boolean } {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    return {
      commit: git('rev-parse', 'HEAD'),
      isDirty: git('status', '--porcelain', '--untracked-files=no', '--', '.', ':!bench/results') !== '',
    };
  } catch {
    return { commit: 'unknown (not a git checkout)', isDirty: false };
  }
}
