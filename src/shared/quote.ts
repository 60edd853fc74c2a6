import { z } from 'zod/mini';

/** The quote of the day (SPEC §3 Quote) as GET /api/quote presents it. */
export const quoteOfTheDaySchema = z.strictObject({
  quote: z.string(),
  author: z.string(),
  /** Where it came from: the configured quotes service, or the bundled collection. */
  source: z.enum(['service', 'bundled']),
});
export type QuoteOfTheDay = z.infer<typeof quoteOfTheDaySchema>;
