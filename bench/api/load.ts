import autocannon from 'autocannon';
import type { CpuFigures, CpuMeter } from './cpu.ts';

/** Latency figures of one scenario (or one endpoint of the exam rush), in milliseconds. */
export type LatencySummary = { n: number; p50: number; p95: number; p99: number; max: number; mean: number };

/** What every scenario reports. */
export type LoadFigures = {
  requests: number;
  seconds: number;
  /** Answered requests per second. */
  rps: number;
  latency: LatencySummary;
  /** Non-2xx answers, connection errors and time-outs together. */
  errors: number;
  statusCodes: Record<string, number>;
  /** CPU time per request (Linux only). */
  cpu?: CpuFigures;
};

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Exact percentiles (nearest rank) of a list of samples. */
export function summariseLatencies(samples: number[]): LatencySummary {
  if (samples.length === 0) return { n: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  const sorted = Float64Array.from(samples).sort();
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    max: round(sorted[sorted.length - 1]!),
    mean: round(sum / sorted.length),
  };
}

/** The load settings every autocannon scenario and the baseline share. */
export type LoadSettings = { connections: number; durationSeconds: number; warmupSeconds: number };

export type CannonRequest = {
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Handed back to onBody with this request's answer (which user logged in). */
  key?: string;
};

/**
 * Runs autocannon against `baseUrl` and measures every response itself (autocannon's
 * histogram has no p95). `next` gives each request in turn (several users, several pages);
 * `amount` runs that many requests instead of a duration; `onBody` sees every answer.
 */
export async function runCannon(options: {
  baseUrl: string;
  settings: LoadSettings;
  next: () => CannonRequest;
  amount?: number;
  onBody?: (status: number, body: string, key: string | undefined) => void;
  /** Measures CPU per request over the measured run (not the warm-up). */
  meter?: CpuMeter;
}): Promise<LoadFigures> {
  const { settings } = options;
  const fire = (measured: boolean, duration: number, amount?: number, onSample?: (milliseconds: number) => void) => {
    const first = options.next();
    let settle: (result: autocannon.Result) => void = () => {};
    let fail: (error: unknown) => void = () => {};
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const cannonOptions: autocannon.Options = {
      url: options.baseUrl,
      connections: settings.connections,
      pipelining: 1,
      ...(amount === undefined ? { duration } : { amount }),
      timeout: 30,
      requests: [
        {
          method: first.method ?? 'GET',
          path: first.path,
          // Called for every request; the context belongs to the connection (one request at a time).
          setupRequest: (request, context) => {
            const wanted = options.next();
            (context as { key?: string | undefined }).key = wanted.key;
            return {
              ...request,
              method: wanted.method ?? 'GET',
              path: wanted.path,
              headers: { ...(wanted.body ? { 'content-type': 'application/json' } : {}), ...wanted.headers },
              ...(wanted.body === undefined ? {} : { body: wanted.body }),
            };
          },
          ...(options.onBody && measured
            ? {
                onResponse: (status: number, body: string, context: object) =>
                  options.onBody!(status, body, (context as { key?: string }).key),
              }
            : {}),
        },
      ],
    };
    const instance = autocannon(cannonOptions, (error, result) => (error ? fail(error) : settle(result)));
    if (onSample) instance.on('response', (_client, _statusCode, _bytes, responseTime) => onSample(responseTime));
    return finished;
  };

  if (settings.warmupSeconds > 0 && options.amount === undefined) await fire(false, settings.warmupSeconds);

  const samples: number[] = [];
  await options.meter?.start();
  const began = performance.now();
  const result = await fire(true, settings.durationSeconds, options.amount, (milliseconds) =>
    samples.push(milliseconds),
  );
  const seconds = (performance.now() - began) / 1000;
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, (stats as { count: number }).count]),
  );
  const answered = Object.values(statusCodes).reduce((total, count) => total + count, 0);
  const cpu = await options.meter?.stop(answered);
  return {
    requests: answered,
    seconds: round(options.amount === undefined ? result.duration : seconds),
    rps: round(answered / (options.amount === undefined ? result.duration : seconds), 1),
    latency: summariseLatencies(samples),
    errors: result.non2xx + result.errors + result.timeouts,
    statusCodes,
    ...(cpu ? { cpu } : {}),
  };
}
