/** The quote of the day (SPEC §3 Quote) as GET /api/quote presents it. */
export type QuoteOfTheDay = {
  quote: string;
  author: string;
  /** Where it came from: the configured quotes service, or the bundled collection. */
  source: 'service' | 'bundled';
};
