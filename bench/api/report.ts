// Renders an API bench result (JSON) as the Markdown tables of docs/benchmarks.md.
//
//   node --import tsx bench/api/report.ts [bench/results/latest.json]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Check = { budget: string; isMet: boolean; actual: string; isEnforced: boolean };
type Latency = { p50: number; p95: number; p99: number; max: number };
type Cpu = { appMsPerRequest: number; databaseMsPerRequest?: number; loadGeneratorMsPerRequest: number };
type Scenario = {
  id: string;
  title: string;
  rps: number;
  ratioToBaseline: number;
  latency: Latency;
  errors: number;
  cpu?: Cpu;
  budgets: Check[];
};
type Rush = {
  students: number;
  requests: number;
  elapsedSeconds: number;
  rps: number;
  peakRps: number;
  latency: Latency;
  errors: number;
  submitted: number;
  isWithinWindow: boolean;
  endpoints: Record<'open' | 'start' | 'save' | 'submit', Latency>;
  cpu?: Cpu;
  budgets: Check[];
};
type RosterDuringExam = {
  exam: Omit<Rush, 'budgets'>;
  import: {
    rows: number;
    seconds: number;
    secondsToWriting?: number;
    checkMs: number;
    startMs: number;
    polls: Latency;
    state: string;
    imported: number;
    errors: number;
  };
  budgets: Check[];
};
type Engine = {
  engine: string;
  seed: { seconds: number; counts: Record<string, number> };
  loadAverageAtStart: number[];
  baseline: { rps: number; latency: Latency; cpu?: Cpu };
  scenarios: Scenario[];
  examRush: Rush[];
  /** Missing in records made before the scenario was written. */
  rosterDuringExam?: RosterDuringExam;
  largestExamThatHolds?: number | null;
};
export type BenchReport = {
  mode: string;
  date: string;
  /** Missing in records made before it was written. */
  code?: { commit: string; isDirty: boolean };
  command: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    node: string;
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
  };
  settings: { load: { connections: number; durationSeconds: number }; examWindowSeconds: number };
  engines: Engine[];
};

const verdict = (checks: Check[]) => {
  const missed = checks.filter((check) => !check.isMet);
  if (missed.length === 0) return checks.some((check) => check.isEnforced) ? 'met' : 'met (reported)';
  return missed.map((check) => `${check.isEnforced ? '**missed**' : 'not met (reported)'}: ${check.budget}`).join('; ');
};

const cpuCell = (cpu: Cpu | undefined) =>
  cpu ? `${cpu.appMsPerRequest} / ${cpu.databaseMsPerRequest ?? '–'} / ${cpu.loadGeneratorMsPerRequest}` : '–';

/** The Markdown of one run: machine line, read scenarios, exam rush rounds. */
export function renderMarkdown(report: BenchReport): string {
  const { machine } = report;
  const code = report.code
    ? `, at ${report.code.commit.slice(0, 7)}${report.code.isDirty ? ' with local changes' : ''}`
    : '';
  const lines = [
    `${report.date.slice(0, 10)}${code}, ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB, Node ${machine.node}, load average ${machine.loadAverageAtStart.join(' / ')} at the start and ${machine.loadAverageAtEnd.join(' / ')} at the end; \`${report.command}\` (${report.mode}); autocannon ${report.settings.load.connections} connections, ${report.settings.load.durationSeconds} s per scenario.`,
    '',
    '| engine | scenario | req/s | % of baseline | p50 ms | p95 ms | p99 ms | errors | CPU ms/request app / db / load gen. | budgets |',
    '| --- | --- | --: | --: | --: | --: | --: | --: | --- | --- |',
  ];
  for (const engine of report.engines) {
    lines.push(
      `| ${engine.engine} | baseline: Fastify hello-world | ${engine.baseline.rps} | 100% | ${engine.baseline.latency.p50} | ${engine.baseline.latency.p95} | ${engine.baseline.latency.p99} | 0 | ${cpuCell(engine.baseline.cpu)} | |`,
    );
    for (const scenario of engine.scenarios) {
      lines.push(
        `| ${engine.engine} | ${scenario.id}: ${scenario.title} | ${scenario.rps} | ${(scenario.ratioToBaseline * 100).toFixed(1)}% | ${scenario.latency.p50} | ${scenario.latency.p95} | ${scenario.latency.p99} | ${scenario.errors} | ${cpuCell(scenario.cpu)} | ${verdict(scenario.budgets)} |`,
      );
    }
  }
  lines.push(
    '',
    `Exam rush (${report.settings.examWindowSeconds} s window; latency from when each request was due):`,
    '',
    '| engine | students | requests | last answer at | req/s (peak) | p50 ms | p95 ms | p99 ms | max ms | errors | submitted | p99 open / start / save / submit ms | CPU ms/request app / db / driver | budgets |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- | --- | --- |',
  );
  for (const engine of report.engines) {
    for (const round of engine.examRush) {
      const { open, start, save, submit } = round.endpoints;
      lines.push(
        `| ${engine.engine} | ${round.students} | ${round.requests} | ${round.elapsedSeconds} s | ${round.rps} (${round.peakRps}) | ${round.latency.p50} | ${round.latency.p95} | ${round.latency.p99} | ${round.latency.max} | ${round.errors} | ${round.submitted} | ${open.p99} / ${start.p99} / ${save.p99} / ${submit.p99} | ${cpuCell(round.cpu)} | ${verdict(round.budgets)} |`,
      );
    }
    if (engine.largestExamThatHolds !== undefined) {
      const smallest = Math.min(...engine.examRush.map((round) => round.students));
      const holds = engine.largestExamThatHolds ?? `none of the rounds (smallest: ${smallest})`;
      lines.push(`| ${engine.engine} | largest N that holds: **${holds}** | | | | | | | | | | | | |`);
    }
  }
  const rosterRuns = report.engines.flatMap((engine) =>
    engine.rosterDuringExam ? [{ engine: engine.engine, ...engine.rosterDuringExam }] : [],
  );
  if (rosterRuns.length > 0)
    lines.push(
      '',
      `Roster import during an exam (the file checked, imported and followed as the client does, from the exam's start; ${report.settings.examWindowSeconds} s window):`,
      '',
      '| engine | imported | import done at | writing from | check / start ms | poll p99 ms | exam students | exam requests | last answer at | exam p99 ms | p99 open / start / save / submit ms | errors exam / import | submitted | CPU ms/exam request app / db / driver | budgets |',
      '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- | --: | --: | --- | --- |',
      ...rosterRuns.map(({ engine, exam, import: imported, budgets }) => {
        const { open, start, save, submit } = exam.endpoints;
        return `| ${engine} | ${imported.imported} of ${imported.rows} (${imported.state}) | ${imported.seconds} s | ${imported.secondsToWriting ?? '–'} s | ${imported.checkMs} / ${imported.startMs} | ${imported.polls.p99} | ${exam.students} | ${exam.requests} | ${exam.elapsedSeconds} s | ${exam.latency.p99} | ${open.p99} / ${start.p99} / ${save.p99} / ${submit.p99} | ${exam.errors} / ${imported.errors} | ${exam.submitted} | ${cpuCell(exam.cpu)} | ${verdict(budgets)} |`;
      }),
    );
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2] ?? fileURLToPath(new URL('../results/latest.json', import.meta.url));
  console.log(renderMarkdown(JSON.parse(readFileSync(file, 'utf8')) as BenchReport));
}
