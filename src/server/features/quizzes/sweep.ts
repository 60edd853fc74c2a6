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
    // Closed first, so a quiz's last attempts are closed before its scores are released.
    running = quizzes
      .closeExpiredAttempts()
      .then(async (closed) => {
        if (closed > 0) app.log.info({ closed }, 'closed attempts whose time ran out');
        const released = await quizzes.releaseScores();
        if (released > 0) app.log.info({ released }, 'released the scores of quizzes past their close');
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
