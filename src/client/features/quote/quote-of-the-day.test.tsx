import type { Messages } from '@lingui/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BUNDLED_QUOTES } from '#shared/bundled-quotes';
import { renderTranslated } from '../../testing/render-translated.tsx';
import { signInAs, signUpTeacher } from '../../testing/server-actors.ts';
import { QuoteOfTheDay, quoteQueries } from './quote-of-the-day.tsx';

/**
 * The quote is English content inside a Spanish or Arabic page: its text and author say so
 * (lang="en", left to right) for screen readers' voice and for layout; the figure's label is UI.
 */

const catalog = async (locale: string) =>
  ((await import(`../../locales/${locale}/messages.po`)) as { messages: Messages }).messages;

function renderQuote(client: QueryClient, locale: string, messages: Messages) {
  return renderTranslated(
    <QueryClientProvider client={client}>
      <div lang={locale} dir={locale === 'ar' ? 'rtl' : 'ltr'}>
        <QuoteOfTheDay />
      </div>
    </QueryClientProvider>,
    { locale, messages },
  );
}

describe('the quote of the day in a translated page', () => {
  it('marks the server’s quote and author as English, left to right, in Arabic', async () => {
    signInAs(await signUpTeacher(), 'teacher');
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderQuote(client, 'ar', await catalog('ar'));
    const figure = await screen.findByRole('figure', { name: 'اقتباس اليوم' });
    // The figure itself is UI (its label is Arabic): not marked English.
    expect(figure).not.toHaveAttribute('lang');
    const quote = figure.querySelector('blockquote');
    expect(quote).toHaveAttribute('lang', 'en');
    expect(quote).toHaveAttribute('dir', 'ltr');
    const data = client.getQueryData(quoteQueries.today().queryKey);
    expect(quote).toHaveTextContent(data!.quote);
    if (data!.author) {
      const author = within(figure).getByText(new RegExp(data!.author.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      expect(author).toHaveAttribute('lang', 'en');
      expect(author).toHaveAttribute('dir', 'ltr');
    }
  });

  it('marks a quote and author as English in Spanish too', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const shown = BUNDLED_QUOTES[0]!;
    client.setQueryData(quoteQueries.today().queryKey, { ...shown, source: 'bundled' as const });
    renderQuote(client, 'es', await catalog('es'));
    const figure = screen.getByRole('figure', { name: 'Cita del día' });
    const quote = within(figure).getByText(shown.quote);
    expect(quote).toHaveAttribute('lang', 'en');
    expect(quote).toHaveAttribute('dir', 'ltr');
    const author = within(figure).getByText(`— ${shown.author}`);
    expect(author).toHaveAttribute('lang', 'en');
    expect(author).toHaveAttribute('dir', 'ltr');
  });
});
