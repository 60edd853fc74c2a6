import type { FastifyPluginAsync } from 'fastify';
import { getQuote } from '#shared/contract/quote';
import { routeEndpoint } from '../../endpoint-route.ts';
import type { QuoteService } from './service.ts';

/** GET /api/quote: public (ARCHITECTURE: API conventions), always answers with a quote. */
export function quoteRoutes(quotes: QuoteService): FastifyPluginAsync {
  return async (app) => {
    routeEndpoint(app, getQuote, { config: { policy: { caller: 'anyone', touches: ['nothing'] } } }, async () => ({
      message: 'Quote of the day',
      data: await quotes.quoteOfTheDay(),
    }));
  };
}
