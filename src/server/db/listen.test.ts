import { createServer, Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, type NoticeHandlers } from './client.ts';
import { createScratchDatabase } from '../testing/postgres-databases.ts';
import { patience } from '../testing/patience.ts';

/**
 * The LISTEN behind decision 017's addendum, on a real PostgreSQL server: notices stop
 * silently when the listening connection hangs (a firewall dropping it without a reset) or
 * never hears anything (PgBouncer's transaction mode). The heartbeat must notice both, say so
 * and keep saying that whatever was kept may be stale (onMissed). Heartbeats are shortened here.
 */
const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const HEARTBEAT = { intervalMs: 150, timeoutMs: 150 };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fresh database; `listenUrl` may route the listening connection elsewhere. */
async function scratchHandle(listenUrl?: (url: string) => Promise<string>): Promise<DatabaseHandle> {
  const database = await createScratchDatabase(POSTGRES_URL!, 'studyhall_listen');
  cleanups.push(() => database.drop());
  const handle = await openDatabase({
    kind: 'postgres',
    url: database.url,
    listenUrl: await listenUrl?.(database.url),
    listenHeartbeat: HEARTBEAT,
    isMigrated: false,
  });
  cleanups.push(() => handle.close());
  return handle;
}

function recorder() {
  const seen = { notices: [] as string[], missed: 0, errors: [] as string[] };
  const handlers: NoticeHandlers = {
    onNotice: (payload) => seen.notices.push(payload),
    onMissed: () => (seen.missed += 1),
    onError: (error) => seen.errors.push(error instanceof Error ? error.message : String(error)),
  };
  return { seen, handlers };
}

/**
 * A TCP relay to PostgreSQL whose freeze() stops relaying on the connections open now without
 * closing them (a hung connection); connections made later are relayed as usual.
 */
async function freezableRelay(target: URL): Promise<{ port: number; freeze(): void }> {
  const pairs: { inbound: Socket; outbound: Socket; isFrozen: boolean }[] = [];
  const server = createServer((inbound) => {
    const outbound = new Socket();
    outbound.connect(Number(target.port || 5432), target.hostname);
    const pair = { inbound, outbound, isFrozen: false };
    pairs.push(pair);
    inbound.on('data', (chunk) => void (pair.isFrozen || outbound.write(chunk)));
    outbound.on('data', (chunk) => void (pair.isFrozen || inbound.write(chunk)));
    inbound.on('error', () => outbound.destroy());
    outbound.on('error', () => inbound.destroy());
    inbound.on('close', () => pair.isFrozen || outbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of pairs.flatMap((pair) => [pair.inbound, pair.outbound])) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => pairs.forEach((pair) => (pair.isFrozen = true)),
  };
}

describe.skipIf(!POSTGRES_URL)('LISTEN on PostgreSQL', () => {
  it('hears notices from other connections, and never shows its own heartbeats', async () => {
    const handle = await scratchHandle();
    const { seen, handlers } = recorder();
    const stop = await handle.listen('studyhall_test_channel', handlers);
    cleanups.push(stop);
    await handle.db.execute(sql`select pg_notify('studyhall_test_channel', 'teacher:one')`);
    await expect.poll(() => seen.notices, { timeout: patience(2_000) }).toEqual(['teacher:one']);
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT.intervalMs * 4));
    expect(seen.notices).toEqual(['teacher:one']);
    expect(seen.missed).toBe(0);
    expect(seen.errors).toEqual([]);
  });

  it('notices a listening connection that hangs without closing, and listens again', async () => {
    let relay: Awaited<ReturnType<typeof freezableRelay>> | undefined;
    const handle = await scratchHandle(async (url) => {
      relay = await freezableRelay(new URL(url));
      const relayed = new URL(url);
      relayed.hostname = '127.0.0.1';
      relayed.port = String(relay.port);
      return relayed.toString();
    });
    const { seen, handlers } = recorder();
    const stop = await handle.listen('studyhall_test_channel', handlers);
    cleanups.push(stop);
    relay!.freeze();
    await expect.poll(() => seen.missed, { timeout: patience(3_000) }).toBeGreaterThan(0);
    expect(seen.errors.join('\n')).toMatch(/no notice arrived/);
    // A new connection through the relay hears notices again.
    await expect
      .poll(
        async () => {
          await handle.db.execute(sql`select pg_notify('studyhall_test_channel', 'student:again')`);
          return seen.notices.includes('student:again');
        },
        { timeout: patience(5_000), interval: 200 },
      )
      .toBe(true);
  });

  it('notices a connection that hears nothing (as through PgBouncer) and keeps saying so', async () => {
    // A LISTEN on another database hears none of this one's notices: PgBouncer's symptom.
    const elsewhere = await createScratchDatabase(POSTGRES_URL!, 'studyhall_listen_elsewhere');
    cleanups.push(() => elsewhere.drop());
    const handle = await scratchHandle(async () => elsewhere.url);
    const { seen, handlers } = recorder();
    const stop = await handle.listen('studyhall_test_channel', handlers);
    cleanups.push(stop);
    await expect.poll(() => seen.missed, { timeout: patience(5_000) }).toBeGreaterThanOrEqual(2);
    expect(seen.errors.join('\n')).toMatch(/no notice arrived/);
  });
});
