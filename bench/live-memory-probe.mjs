// Loaded into the server by bench/live-game.ts (`node --expose-gc --import`): on SIGUSR2 the
// server collects its garbage and prints its memory as one line on stdout, so the bench reads
// what connected players cost the server's heap, not what the next collection would have freed.
// Plain JavaScript: it loads before tsx does.
const MEMORY_LINE_PREFIX = 'live-bench-memory '; // bench/live-game.ts reads lines that start so

process.on('SIGUSR2', () => {
  globalThis.gc?.();
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  process.stdout.write(
    `${MEMORY_LINE_PREFIX}${JSON.stringify({ rss, heapUsed, heapTotal, external, arrayBuffers, isCollected: typeof globalThis.gc === 'function' })}\n`,
  );
});
