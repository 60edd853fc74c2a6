import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http.ts';
import type { QuoteService } from './service.ts';

/** GET /api/quote: public (ARCHITECTURE: API conventions), always answers with a quote. */
export function quoteRoutes(quotes: QuoteService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/quote', { config: { policy: { caller: 'anyone', touches: ['nothing'] } } }, async () =>
      ok('Quote of the day', await quotes.quoteOfTheDay()),
    );
  };
}
