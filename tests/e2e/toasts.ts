import { expect, type BrowserContext, type Page } from '@playwright/test';

/**
 * Toasts as events (issue 30 point 12, decision 042). A toast lives two seconds or so, and on a
 * loaded machine Playwright's polling may first look after it has gone: a test that needs one
 * waits for the record of its appearance, not for it to be on screen.
 *
 * Every page the fixtures make (fixtures.ts) runs `watchAnnouncements` before the app: a
 * MutationObserver that reports each toast (`.toast`), status (`[role=status]`) and alert
 * (`[role=alert]`) the moment it appears or its text changes, with the page's time. The record
 * lives here, per page, so it survives the page's own navigations.
 */

export type Announcement = {
  kind: 'toast' | 'status' | 'alert';
  text: string;
  /** `Date.now()` in the page when it appeared. */
  at: number;
};

type Pattern = { source: string; flags: string };
/** In the page: the toasts to hold as they appear, and the toaster held, if one is. */
type Holds = { patterns: Pattern[]; toasterBox: Element | null };

/** The name the pages call to report an announcement. */
const REPORT_BINDING = '__e2eReportAnnouncement';
/** The page's list of toasts to hold as soon as they appear (`holdToast`). */
const HOLDS_KEY = '__e2eToastHolds';

const announcementsByPage = new WeakMap<Page, Announcement[]>();
/** How many of a page's announcements each `expectToast` has used up: one event, one expectation. */
const usedByPage = new WeakMap<Page, Set<Announcement>>();

/** Every announcement `page` made so far, oldest first. */
export const announcementsOf = (page: Page): readonly Announcement[] => announcementsByPage.get(page) ?? [];

/** Installs the observer in every page of `context`, now and later. */
export async function recordAnnouncements(context: BrowserContext) {
  await context.exposeBinding(REPORT_BINDING, ({ page }, announcement: Announcement) => {
    const announcements = announcementsByPage.get(page) ?? [];
    announcements.push(announcement);
    announcementsByPage.set(page, announcements);
  });
  await context.addInitScript(watchAnnouncements, { binding: REPORT_BINDING, holdsKey: HOLDS_KEY });
}

/** Runs in the page, before its own scripts. */
function watchAnnouncements({ binding, holdsKey }: { binding: string; holdsKey: string }) {
  const page = window as unknown as Record<string, unknown>;
  const report = page[binding] as ((announcement: Announcement) => void) | undefined;
  if (!report || window !== window.top) return;
  const holds: Holds = { patterns: [], toasterBox: null };
  page[holdsKey] = holds;
  const selector = '.toast, [role="status"], [role="alert"]';
  const lastText = new WeakMap<Element, string>();

  const kindOf = (element: Element): Announcement['kind'] =>
    element.matches('.toast') ? 'toast' : element.getAttribute('role') === 'alert' ? 'alert' : 'status';

  // The toaster pauses while the pointer is over it (toaster.tsx): a mouseover from outside the
  // window is React's mouseenter on the toaster's box, before the toast's own timer can run out.
  const hold = (toast: Element) => {
    const toasterBox = toast.parentElement?.parentElement; // box > frame > .toast
    if (!toasterBox || holds.toasterBox) return;
    holds.toasterBox = toasterBox;
    toasterBox.dispatchEvent(new MouseEvent('mouseover', { bubbles: true, relatedTarget: null }));
  };

  const look = (element: Element) => {
    // A toast's message is its own status element: reported once, as the toast.
    if (!element.matches('.toast') && element.closest('.toast')) return;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    // Emptied, or a toast leaving (hidden from screen readers, toaster.tsx): said again, it counts again.
    if (!text || element.getAttribute('aria-hidden') === 'true') return void lastText.delete(element);
    if (lastText.get(element) === text) return;
    lastText.set(element, text);
    const kind = kindOf(element);
    report({ kind, text, at: Date.now() });
    if (kind === 'toast' && holds.patterns.some(({ source, flags }) => new RegExp(source, flags).test(text)))
      hold(element);
  };

  new MutationObserver((mutations) => {
    const touched = new Set<Element>();
    for (const mutation of mutations) {
      const target = mutation.target instanceof Element ? mutation.target : mutation.target.parentElement;
      const around = target?.closest(selector);
      if (around) touched.add(around.closest('.toast') ?? around);
      for (const added of mutation.addedNodes) {
        if (!(added instanceof Element)) continue;
        if (added.matches(selector)) touched.add(added);
        for (const inside of added.querySelectorAll(selector)) touched.add(inside);
      }
    }
    touched.forEach(look);
  }).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['role', 'aria-hidden'],
  });
}

const matches = (text: string, expected: string | RegExp) =>
  typeof expected === 'string' ? text.includes(expected) : expected.test(text);

/**
 * Waits until `page` has announced this text as a `kind` (a toast unless told) that no earlier
 * check used, however briefly it stayed; a string is a part of the text. Returns its record.
 * `timeout`: a hang limit other than the expect timeout, through `patience`.
 */
export async function expectAnnounced(
  page: Page,
  expected: string | RegExp,
  { kind = 'toast', timeout }: { kind?: Announcement['kind']; timeout?: number } = {},
) {
  const used = usedByPage.get(page) ?? new Set<Announcement>();
  usedByPage.set(page, used);
  const unused = () =>
    announcementsOf(page).filter((announcement) => announcement.kind === kind && !used.has(announcement));
  await expect
    .poll(() => unused().map((announcement) => announcement.text), {
      message: `a ${kind} saying ${String(expected)} (the ones so far that no check used:)`,
      ...(timeout === undefined ? {} : { timeout }),
    })
    .toContainEqual(typeof expected === 'string' ? expect.stringContaining(expected) : expect.stringMatching(expected));
  const found = unused().find((announcement) => matches(announcement.text, expected))!;
  used.add(found);
  return found;
}

/** A toast with this text was shown (`expectAnnounced`), however briefly. */
export const expectToast = (page: Page, expected: string | RegExp, options: { timeout?: number } = {}) =>
  expectAnnounced(page, expected, { ...options, kind: 'toast' });

/**
 * Holds the toast with this text from the moment it appears in the page's current document
 * (call it before the action that shows it): the toaster pauses while hovered, as for a person
 * reading it, so checks of its place or colours find it however slow the machine. Every toast
 * waits while one is held; `releaseToasts` lets them go on.
 */
export async function holdToast(page: Page, expected: string | RegExp) {
  const pattern: Pattern =
    typeof expected === 'string'
      ? { source: expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags: '' }
      : { source: expected.source, flags: expected.flags };
  await page.evaluate(
    ({ holdsKey, pattern }) =>
      (window as unknown as Record<string, Holds | undefined>)[holdsKey]?.patterns.push(pattern),
    { holdsKey: HOLDS_KEY, pattern },
  );
}

/** Ends every hold of the page's current document: the pointer leaves the toaster. */
export async function releaseToasts(page: Page) {
  await page.evaluate((holdsKey) => {
    const holds = (window as unknown as Record<string, Holds | undefined>)[holdsKey];
    if (!holds) return;
    holds.patterns.length = 0;
    holds.toasterBox?.dispatchEvent(new MouseEvent('mouseout', { bubbles: true, relatedTarget: document.body }));
    holds.toasterBox = null;
  }, HOLDS_KEY);
}
