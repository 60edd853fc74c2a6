import { useLingui } from '@lingui/react/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Quote } from 'lucide-react';
import { useEffect } from 'react';
import { bundledQuoteFor } from '#shared/bundled-quotes';
import { getQuote } from '#shared/contract/quote';
import { call } from '../../lib/api.ts';

/** The quote feature's queries. */
export const quoteQueries = {
  /** Today's quote; it changes once a day, so an hour-old one is fresh enough. Failures are only logged. */
  today: () =>
    queryOptions({
      queryKey: ['quote'],
      queryFn: async () => (await call(getQuote)).data,
      staleTime: 60 * 60 * 1000,
      meta: { errorToast: false },
    }),
};

/** The inspirational quote on top of the teacher's home (SPEC §2); failures are only logged (§8). */
export function QuoteOfTheDay() {
  const quote = useQuery(quoteQueries.today());
  const { t } = useLingui();
  useEffect(() => {
    if (quote.isError) console.error('Loading the quote of the day failed:', quote.error.message);
  }, [quote.isError, quote.error]);
  // Always a quote (the issue): should even our server not answer, the bundled one of the day.
  const shown = quote.data ?? (quote.isError ? { ...bundledQuoteFor(new Date()), source: 'bundled' as const } : null);
  if (!shown) return null;
  return (
    <figure className="rounded-2xl bg-brand-700 p-6 text-white shadow-sm" aria-label={t`Quote of the day`}>
      <Quote className="size-6 text-brand-200" aria-hidden="true" />
      {/* The quotes are English sayings (the server's and the bundled ones): said and laid out as English. */}
      <blockquote lang="en" dir="ltr" className="mt-2 text-lg font-medium wrap-anywhere sm:text-xl">
        {shown.quote}
      </blockquote>
      {shown.author ? (
        <figcaption lang="en" dir="ltr" className="mt-3 text-sm text-brand-100">
          — {shown.author}
        </figcaption>
      ) : null}
    </figure>
  );
}
