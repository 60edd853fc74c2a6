import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { patience } from '../../src/server/testing/patience.ts';
import { recordAnnouncements } from './toasts.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical
 * violation (WCAG 2.1 AA rules). Call it on every screen a scenario reaches.
 *
 * Toasts are left out: they fade in and out on their own timer, so one can start leaving
 * during the run and be read mid-fade (a false contrast failure). Their own check holds one
 * still first: `expectAccessible(page, label, { only: '.toast' })` (ui-defects.spec.ts).
 */
export async function expectAccessible(page: Page, label = page.url(), { only }: { only?: string } = {}) {
  await page.waitForLoadState('domcontentloaded');
  // Colours read mid-fade are not the real ones: let finite animations finish.
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
        ),
    null,
    { timeout: patience(10_000) },
  );
  const hasAxe = await page.evaluate(() => 'axe' in window);
  // Evaluated, not added as a <script>: the app's CSP (rightly) refuses inline scripts.
  if (!hasAxe) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (only) => {
    const axe = (
      window as unknown as {
        axe: { run: (context: object, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const context = only ? { include: [[only]] } : { exclude: [['.toast']] };
    const result = await axe.run(context, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      // Only the violations are read: axe then skips building selectors for every passing node.
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => ({ target: node.target })),
    }));
  }, only);
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking, `axe-core violations on ${label}:\n${JSON.stringify(blocking, null, 2)}`).toEqual([]);
}

type CspViolation = { page: string; directive: string; blocked: string; source: string; sample: string };

/** The name the pages call to report a violation of the app's Content-Security-Policy. */
const CSP_BINDING = '__e2eReportCspViolation';

/**
 * Makes every page of `context` report violations of our Content-Security-Policy
 * (the `securitypolicyviolation` event, shadow roots included) and collects the
 * browser's own console lines about the policy headers ("Refused to …", a
 * Permissions-Policy it could not read). Frames of other origins (a video
 * provider's player) have their own policy and are not ours to judge.
 */
async function watchSecurityPolicy(context: BrowserContext, origin: string, problems: string[]) {
  await context.exposeBinding(CSP_BINDING, ({ frame }, violation: CspViolation) => {
    problems.push(`CSP violation on ${frame.url()}: ${JSON.stringify(violation)}`);
  });
  await context.addInitScript(
    ({ ourOrigin, binding }) => {
      if (location.origin !== ourOrigin) return;
      document.addEventListener(
        'securitypolicyviolation',
        (event) => {
          const report = (window as unknown as Record<string, (violation: CspViolation) => void>)[binding];
          report?.({
            page: location.href,
            directive: event.effectiveDirective,
            blocked: event.blockedURI,
            source: `${event.sourceFile}:${event.lineNumber}`,
            sample: event.sample,
          });
        },
        true,
      );
    },
    { ourOrigin: origin, binding: CSP_BINDING },
  );
  context.on('console', (message) => {
    const text = message.text();
    if (/^Refused to |Content[- ]Security[- ]Policy|Permissions-Policy/i.test(text)) {
      problems.push(`console ${message.type()} on ${message.page()?.url() ?? '?'}: ${text}`);
    }
  });
}

/** What every context of a test gets: its security policy watched, its toasts recorded (toasts.ts). */
async function watchContext(context: BrowserContext, origin: string, problems: string[]) {
  await watchSecurityPolicy(context, origin, problems);
  await recordAnnouncements(context);
}

/**
 * Every test fails on an uncaught page error or a console error, wherever it
 * happened, unless the test says the error is expected; and on any violation
 * of the app's security policy headers, which no test may allow: the real app
 * must run under its real policy. Contexts a test opens itself (a second
 * person, a second browser) are watched too, and every page's toasts are recorded (toasts.ts).
 */
export const test = base.extend<{
  pageErrors: { allow(pattern: RegExp): void };
  securityPolicy: { problems: readonly string[] };
}>({
  securityPolicy: [
    async ({ browser, context, baseURL }, use) => {
      const problems: string[] = [];
      const origin = new URL(baseURL!).origin;
      await watchContext(context, origin, problems);
      // browser.newPage() opens its context through newContext() too.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...options: Parameters<Browser['newContext']>) => {
        const opened = await newContext(...options);
        await watchContext(opened, origin, problems);
        return opened;
      };
      try {
        await use({ problems });
      } finally {
        browser.newContext = newContext;
      }
      expect(problems, 'violations of the security policy headers').toEqual([]);
    },
    { auto: true },
  ],
  pageErrors: [
    async ({ page }, use) => {
      const problems: string[] = [];
      const allowed: RegExp[] = [];
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
      });
      await use({ allow: (pattern) => allowed.push(pattern) });
      // Whatever screen a test ends on is checked too.
      if (!page.isClosed() && page.url().startsWith('http')) await expectAccessible(page, `end of test: ${page.url()}`);
      const unexpected = problems.filter((problem) => !allowed.some((pattern) => pattern.test(problem)));
      expect(unexpected, 'page errors during the test').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
