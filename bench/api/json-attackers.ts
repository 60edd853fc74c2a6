// The attackers of bench/json-attack.ts, in a process of their own so that their work does
// not delay the health probe's timers: N connections, each sending one hostile JSON body
// after another to one route until SIGTERM, then one line of JSON on stdout (what came back).
//
//   node --import tsx bench/api/json-attackers.ts <baseUrl> <path> <tokens> <shape> <bytes> <connections>
//
// <tokens>: one or more bearer tokens, comma-separated; connection i sends with token i mod n.
import { Pool } from 'undici';

const ATTACK_SHAPES = ['nested', 'wide', 'escapes'] as const;
export type AttackShape = (typeof ATTACK_SHAPES)[number];

/** What the attackers report when they stop. */
export type AttackFigures = { requests: number; statusCodes: Record<string, number>; networkErrors: number };

/** A character written as a 6-byte JSON escape (é): the most bytes per character of valid text. */
const ESCAPED_CHARACTER = '\\u00e9';
const ESCAPED_QUIZ = { questions: 200, options: 4, fieldMax: 2000, totalTextMax: 300_000 };

/**
 * A valid quiz of about `bytes` whose every text is escapes (`\u00e9…`): 200 questions, each
 * with its text and four options (the first one its answer), the text shared between them so
 * the whole stays within the quiz's limits. It passes the scan and the schema: what it costs
 * is the work a real quiz costs, at the largest size a teacher can send.
 */
function escapedQuiz(bytes: number, classId: string): string {
  const { questions, options, fieldMax, totalTextMax } = ESCAPED_QUIZ;
  // Per question: the text, four options and the answer (a copy of the first option).
  const fields = 1 + options + 1;
  const perField = Math.floor((bytes - 1000) / questions / fields / ESCAPED_CHARACTER.length) - 4;
  const characters = Math.max(
    1,
    Math.min(fieldMax - 4, perField, Math.floor(totalTextMax / questions / (1 + options)) - 4),
  );
  const text = ESCAPED_CHARACTER.repeat(characters);
  const list = Array.from({ length: questions }, (_, question) => {
    const choices = Array.from({ length: options }, (_, option) => `"${option}${text}"`);
    return `{"question_text":"${question}${text}","options":[${choices.join(',')}],"answer":${choices[0]}}`;
  });
  const deadline = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000).toISOString();
  return (
    `{"title":"Escapes","classId":"${classId}","deadline":"${deadline}","maxTime":10,` +
    `"quiz":{"background":"/images/quiz-templates/quiz1-template.png","questions":[${list.join(',')}]}}`
  );
}

/**
 * A hostile body of about `bytes`: `nested` is arrays inside arrays ([[[…]]], the costliest
 * nesting for JSON.parse); `wide` is one object with as many small members as fit; `escapes`
 * a valid quiz whose texts are all 6-byte escapes (escapedQuiz).
 */
function attackBody(shape: AttackShape, bytes: number, classId: string): string {
  if (shape === 'escapes') return escapedQuiz(bytes, classId);
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
  const [baseUrl, path, tokenList, shape, bytes, connections] = process.argv.slice(2);
  if (!baseUrl || !path || !tokenList || !ATTACK_SHAPES.includes(shape as AttackShape)) {
    throw new Error(
      'usage: json-attackers.ts <baseUrl> <path> <token:classId,…> <nested|wide|escapes> <bytes> <connections>',
    );
  }
  // Each teacher's own class: a valid quiz must name a class of its sender to be created (201).
  const senders = tokenList.split(',').map((entry) => {
    const [token, classId = ''] = entry.split(':');
    return { token: token!, body: Buffer.from(attackBody(shape as AttackShape, Number(bytes), classId)) };
  });
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
  const attacker = async (_: unknown, index: number) => {
    const { token, body } = senders[index % senders.length]!;
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
