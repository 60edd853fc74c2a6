import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { QuoteOfTheDay } from '#shared/quote';
import { bundledQuoteFor } from '#shared/bundled-quotes';

/** SPEC: the quotes service gets 2 s; after that the dashboard shows a bundled quote. */
export const QUOTE_TIMEOUT_MS = 2000;
/** A quote from the service is the quote of the (UTC) day: kept until the day ends. */
const endOfDay = (date: Date) => (Math.floor(date.getTime() / 86_400_000) + 1) * 86_400_000;
/** After a failure, wait this long before asking the service again. */
export const QUOTE_RETRY_AFTER_MS = 5 * 60 * 1000;

export type QuotesServiceConfig = { url?: string | undefined; key?: string | undefined };

// API Ninjas answers [{ quote, author, category }]; anything else is treated as a failure.
const serviceAnswerSchema = z
  .array(z.object({ quote: z.string().trim().min(1).max(1000), author: z.string().trim().max(200).default('') }))
  .min(1);

/**
 * The quote of the day: from the configured service (key sent by the server,
 * never by the browser), cached; the bundled collection whenever the service
 * is unset, slow, down or answers nonsense. Failures are only logged.
 */
export function createQuoteService(config: QuotesServiceConfig, log: FastifyBaseLogger, now = () => new Date()) {
  let cached: { value: QuoteOfTheDay; expiresAt: number } | undefined;
  let inFlight: Promise<QuoteOfTheDay> | undefined;

  const bundled = (): QuoteOfTheDay => ({ ...bundledQuoteFor(now()), source: 'bundled' });

  async function fetchFromService(url: string): Promise<QuoteOfTheDay> {
    const address = new URL(url);
    address.searchParams.set('category', 'success');
    const response = await fetch(address, {
      headers: { accept: 'application/json', ...(config.key ? { 'X-Api-Key': config.key } : {}) },
      signal: AbortSignal.timeout(QUOTE_TIMEOUT_MS),
      // A redirect would carry the key to wherever it points: refuse it.
      redirect: 'error',
    });
    if (!response.ok) throw new Error(`quotes service answered HTTP ${response.status}`);
    const answer = serviceAnswerSchema.safeParse(await response.json());
    if (!answer.success) throw new Error('quotes service answered something that is not a list of quotes');
    const [first] = answer.data;
    return { quote: first!.quote, author: first!.author, source: 'service' };
  }

  return {
    async quoteOfTheDay(): Promise<QuoteOfTheDay> {
      if (!config.url) return bundled();
      if (cached && cached.expiresAt > now().getTime()) return cached.value;
      // Many dashboards opening at 8 a.m. share one request to the service.
      inFlight ??= fetchFromService(config.url)
        .then((value) => {
          cached = { value, expiresAt: endOfDay(now()) };
          return value;
        })
        .catch((error: unknown) => {
          log.warn({ err: error }, 'quote of the day: using a bundled quote');
          const value = bundled();
          cached = { value, expiresAt: now().getTime() + QUOTE_RETRY_AFTER_MS };
          return value;
        })
        .finally(() => {
          inFlight = undefined;
        });
      return inFlight;
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
