import type { Messages } from '@lingui/core';
import { browserLocale, type DisplayLocale } from './display-locale.ts';

/**
 * A route's compiled catalog in each locale (decision 057): what the build passes lazyRoute for
 * each screen of router.tsx (scripts/vite-route-catalogs.ts). The dev server and the tests pass
 * none: there the shell catalog is the whole one.
 */
export type RouteCatalogs = Partial<Record<DisplayLocale, () => Promise<{ messages: Messages }>>>;

type MessagesSink = (locale: DisplayLocale, messages: Messages) => void;

/**
 * The catalogs of every route loaded in this visit (a change of locale loads theirs in the new
 * one), with each locale's load: once, unless it failed (a retry of the screen tries again).
 */
const shownRoutes = new Map<RouteCatalogs, Map<DisplayLocale, Promise<void>>>();
/** The locale shown, or being activated: a route loaded meanwhile brings its messages in it. */
let currentLocale: DisplayLocale | null = null;
/** lib/i18n.ts, which merges messages into Lingui; until it loads, the messages wait here. */
let sink: MessagesSink | null = null;
const waiting: Array<[DisplayLocale, Messages]> = [];

/**
 * Without Lingui, which the entry chunk does not load (the app's landing route's budget): the
 * messages go to lib/i18n.ts once it has said where (receiveRouteMessages).
 */
function deliver(locale: DisplayLocale, messages: Messages): void {
  if (sink) sink(locale, messages);
  else waiting.push([locale, messages]);
}

function loadIn(locale: DisplayLocale, catalogs: RouteCatalogs): Promise<void> {
  const loads = shownRoutes.get(catalogs) ?? new Map<DisplayLocale, Promise<void>>();
  shownRoutes.set(catalogs, loads);
  let loading = loads.get(locale);
  if (!loading) {
    const load = catalogs[locale];
    loading = load
      ? load().then(({ messages }) => deliver(locale, messages))
      : Promise.reject(new Error(`No catalog in ${locale} for this screen`));
    // A failed load is tried again by the screen's retry; a route that never loaded was not shown.
    loading.catch(() => {
      loads.delete(locale);
      if (loads.size === 0) shownRoutes.delete(catalogs);
    });
    loads.set(locale, loading);
  }
  return loading;
}

/**
 * A route's catalog in the locale shown (before any is, the visit's: the app's providers are about
 * to activate it), loaded beside the route's module. Remembered for a change of locale.
 */
export function loadRouteCatalog(catalogs: RouteCatalogs): Promise<void> {
  return loadIn(currentLocale ?? browserLocale(), catalogs);
}

/**
 * Every shown route's catalog in `locale`, which is being activated (lib/i18n.ts). A route whose
 * catalog fails is that route's to report (its lazyRoute: the chunk failure screen, with a retry),
 * not the whole app's: the activation goes on.
 */
export async function loadShownRouteCatalogs(locale: DisplayLocale): Promise<void> {
  currentLocale = locale;
  await Promise.allSettled([...shownRoutes.keys()].map((catalogs) => loadIn(locale, catalogs)));
}

/** Called once by lib/i18n.ts: where route messages go, those that arrived before it included. */
export function receiveRouteMessages(receive: MessagesSink): void {
  sink = receive;
  for (const [locale, messages] of waiting.splice(0)) receive(locale, messages);
}
