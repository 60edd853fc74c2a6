import type { FastifyInstance } from 'fastify';
import type { QuizzesService } from './service.ts';

/** How often open attempts whose time ran out are closed when nobody asks about them. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Attempts are also closed on the next request that touches them; the sweep
 * makes sure analytics and leaderboards catch up when the student never
 * comes back. Several instances may sweep at once: closing is idempotent.
 */
export function startAttemptSweep(app: FastifyInstance, quizzes: QuizzesService) {
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = quizzes
      .closeExpiredAttempts()
      .then((closed) => {
        if (closed > 0) app.log.info({ closed }, 'closed attempts whose time ran out');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'attempt sweep failed'))
      .finally(() => {
        running = undefined;
      });
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
