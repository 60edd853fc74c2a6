import Fastify from 'fastify';

/**
 * The baseline: a bare Fastify hello-world, started like the app (its own Node process,
 * `node --import tsx`), so every scenario can be compared with the ceiling of this machine.
 */
const port = Number(process.argv[2] ?? 3401);
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});

await app.listen({ port, host: '127.0.0.1' });
