// The attackers of bench/json-attack.ts, in a process of their own so that their work does
// not delay the health probe's timers: N connections, each sending one hostile JSON body
// after another to one route until SIGTERM, then one line of JSON on stdout (what came back).
//
//   node --import tsx bench/api/json-attackers.ts <baseUrl> <path> <token> <shape> <bytes> <connections>
import { Pool } from 'undici';

const ATTACK_SHAPES = ['nested', 'wide'] as const;
export type AttackShape = (typeof ATTACK_SHAPES)[number];

/** What the attackers report when they stop. */
export type AttackFigures = { requests: number; statusCodes: Record<string, number>; networkErrors: number };

/**
 * A hostile body of about `bytes`: `nested` is arrays inside arrays ([[[…]]], the costliest
 * nesting for JSON.parse); `wide` is one object with as many small members as fit.
 */
function attackBody(shape: AttackShape, bytes: number): string {
  if (shape === 'nested') {
    const levels = Math.floor(bytes / 2);
    return '['.repeat(levels) + ']'.repeat(levels);
  }
  const members: string[] = [];
  let size = 2;
  for (let index = 0; size < bytes; index += 1) {
    const member = `"k${index}":0`;
    members.push(member);
    size += member.length + 1;
  }
  return `{${members.join(',')}}`;
}

async function main() {
  const [baseUrl, path, token, shape, bytes, connections] = process.argv.slice(2);
  if (!baseUrl || !path || !token || !ATTACK_SHAPES.includes(shape as AttackShape)) {
    throw new Error('usage: json-attackers.ts <baseUrl> <path> <token> <nested|wide> <bytes> <connections>');
  }
  const body = Buffer.from(attackBody(shape as AttackShape, Number(bytes)));
  const count = Number(connections);
  const pool = new Pool(baseUrl, { connections: count, pipelining: 1 });
  const figures: AttackFigures = { requests: 0, statusCodes: {}, networkErrors: 0 };
  let isRunning = true;
  const stopped = new Promise<void>((resolve) =>
    process.once('SIGTERM', () => {
      isRunning = false;
      resolve();
    }),
  );
  const attacker = async () => {
    while (isRunning) {
      try {
        const response = await pool.request({
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body,
        });
        await response.body.dump();
        figures.requests += 1;
        figures.statusCodes[response.statusCode] = (figures.statusCodes[response.statusCode] ?? 0) + 1;
      } catch {
        if (!isRunning) break;
        figures.networkErrors += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  };
  process.stdout.write('ready\n');
  const running = Array.from({ length: count }, attacker);
  await stopped;
  // Requests in flight are not waited for: the server may be stalled, which is the point.
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  void running;
  await pool.destroy();
  process.exit(0);
}

await main();
