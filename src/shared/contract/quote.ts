import { quoteOfTheDaySchema } from '../quote.ts';
import { defineEndpoint } from './endpoint.ts';

/** The quote of the day on the teacher's home (SPEC §2, §8: failures only logged). */
export const getQuote = defineEndpoint({
  method: 'GET',
  path: '/api/quote',
  summary: 'The quote of the day: from the configured quotes service, else the bundled one of the day',
  response: quoteOfTheDaySchema,
});
