import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test as base, expect, type Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

/**
 * Runs axe-core on the page as it is now and fails on any serious or critical
 * violation (WCAG 2.1 AA rules). Call it on every screen a scenario reaches.
 */
export async function expectAccessible(page: Page, label = page.url()) {
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
    { timeout: 10_000 },
  );
  const hasAxe = await page.evaluate(() => 'axe' in window);
  if (!hasAxe) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => ({ target: node.target })),
    }));
  });
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking, `axe-core violations on ${label}:\n${JSON.stringify(blocking, null, 2)}`).toEqual([]);
}

/**
 * Every test fails on an uncaught page error or a console error, wherever it
 * happened, unless the test says the error is expected.
 */
export const test = base.extend<{ pageErrors: { allow(pattern: RegExp): void } }>({
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
