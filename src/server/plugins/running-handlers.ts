import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The requests whose handlers are still running, so a shutdown closes the database only
 * after them. Fastify's close() waits for open connections, not for handlers: a client
 * that gave up (a closed tab, a load generator stopping) leaves its handler running with
 * nobody to answer, and that handler would then query a closed pool. Fastify still calls
 * onSend when such a handler finishes, so that is where a request stops counting.
 * WebSocket upgrades are left out: their sockets are closed by their own hooks.
 */
export function trackRunningHandlers(app: FastifyInstance) {
  const running = new Set<FastifyRequest>();
  let wake: (() => void) | undefined;
  const finished = (request: FastifyRequest) => {
    if (running.delete(request) && running.size === 0) wake?.();
  };

  app.addHook('onRequest', async (request) => {
    if (request.headers.upgrade === undefined) running.add(request);
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    finished(request);
    return payload;
  });
  // A request answered without a send (hijacked, or failed before one): counted out here.
  app.addHook('onResponse', async (request) => finished(request));

  return {
    get count() {
      return running.size;
    },
    /** Resolves when no handler runs, or after `timeoutMs` (a stuck handler must not hold a deploy). */
    async settled(timeoutMs: number): Promise<void> {
      if (running.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, timeoutMs);
      });
      clearTimeout(timer);
      wake = undefined;
    },
  };
}
