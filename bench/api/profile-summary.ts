// Where a V8 CPU profile's time went (node --cpu-prof, BENCH_CPU_PROF=1), optionally in one
// window of it: self time per function, per package, and V8's own entries (garbage
// collector, program, idle).
//
//   node --import tsx bench/api/profile-summary.ts <file.cpuprofile> [fromUs toUs] [--top N]
//
// fromUs / toUs: the monotonic clock in microseconds (process.hrtime.bigint() / 1000 in any
// process of the machine: the profile's own timestamps are on that clock), as the JSON of
// bench:json-attack gives each phase's (`window`).
import { readFileSync } from 'node:fs';

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

export type ProfileSummary = {
  /** Milliseconds sampled in the window, and of them: idle, garbage collection, the rest. */
  sampledMs: number;
  idleMs: number;
  gcMs: number;
  busyMs: number;
  functions: { name: string; where: string; selfMs: number }[];
  packages: { name: string; selfMs: number }[];
};

const packageOf = (url: string) => {
  if (url === '') return '(V8 / native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1]!;
  if (url.startsWith('node:')) return 'node';
  const own = /\/(src|bench)\/(.*)$/.exec(url);
  return own ? `${own[1]}/${own[2]!.split('/').slice(0, 2).join('/')}` : url;
};

export function summariseProfile(profile: Profile, window?: { fromUs: number; toUs: number }): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    const delta = profile.timeDeltas[index] ?? 0;
    time += delta;
    if (window && (time < window.fromUs || time > window.toUs)) continue;
    // A sample stands for the interval up to the next one.
    const next = profile.timeDeltas[index + 1] ?? 0;
    self.set(profile.samples[index]!, (self.get(profile.samples[index]!) ?? 0) + next);
  }
  const functions = new Map<string, { name: string; where: string; selfMs: number }>();
  const packages = new Map<string, number>();
  let sampled = 0;
  let idle = 0;
  let gc = 0;
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    sampled += us;
    if (functionName === '(idle)') idle += us;
    if (functionName === '(garbage collector)') gc += us;
    const where = url ? `${url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const entry = functions.get(key) ?? { name: functionName || '(anonymous)', where, selfMs: 0 };
    entry.selfMs += us / 1000;
    functions.set(key, entry);
    if (functionName !== '(idle)') packages.set(packageOf(url), (packages.get(packageOf(url)) ?? 0) + us / 1000);
  }
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    sampledMs: round(sampled / 1000),
    idleMs: round(idle / 1000),
    gcMs: round(gc / 1000),
    busyMs: round((sampled - idle) / 1000),
    functions: [...functions.values()]
      .filter((entry) => entry.name !== '(idle)')
      .sort((a, b) => b.selfMs - a.selfMs)
      .map((entry) => ({ ...entry, selfMs: round(entry.selfMs) })),
    packages: [...packages].sort((a, b) => b[1] - a[1]).map(([name, selfMs]) => ({ name, selfMs: round(selfMs) })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, from, to] = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [fromUs toUs] [--top N]');
  const topIndex = process.argv.indexOf('--top');
  const top = topIndex === -1 ? 25 : Number(process.argv[topIndex + 1]);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const window = from && to ? { fromUs: Number(from), toUs: Number(to) } : undefined;
  const summary = summariseProfile(profile, window);
  const share = (ms: number) => `${((ms / Math.max(1, summary.sampledMs)) * 100).toFixed(1)} %`;
  console.log(
    `sampled ${summary.sampledMs} ms: busy ${summary.busyMs} ms (${share(summary.busyMs)}), of which GC ${summary.gcMs} ms (${share(summary.gcMs)}); idle ${summary.idleMs} ms`,
  );
  console.log('\nself time by package:');
  for (const entry of summary.packages.slice(0, 15))
    console.log(`  ${String(entry.selfMs).padStart(9)} ms  ${share(entry.selfMs).padStart(7)}  ${entry.name}`);
  console.log('\nself time by function:');
  for (const entry of summary.functions.slice(0, top)) {
    console.log(
      `  ${String(entry.selfMs).padStart(9)} ms  ${share(entry.selfMs).padStart(7)}  ${entry.name}  ${entry.where}`,
    );
  }
}
