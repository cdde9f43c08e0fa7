import { readFileSync } from 'node:fs';
import { PORTAL_PAGES } from '@scn/proto';
import type { Page } from 'playwright-core';
import { MOBILE } from './support/browser';
import { type Account, registerAccount } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Accessibility (docs/i18n.md, "Accessibility"): axe-core, the engine behind Lighthouse's and
 * the browsers' audits, on every page of the portal in English and in Persian (right to left),
 * on a phone and a desktop: no serious or critical WCAG 2.1 A/AA violation. And focus goes back
 * to what opened a dialog when it closes, so a keyboard or screen-reader user keeps their place.
 */

const suite = browserSuite();
const accounts: Partial<Record<'client' | 'node', Account>> = {};

beforeAll(async () => {
  accounts.client = await registerAccount(suite.stack, 'client');
  accounts.node = await registerAccount(suite.stack, 'node');
});

interface Route {
  path: string;
  as?: 'client' | 'node';
}

const ROUTES: Route[] = [
  ...Object.values(PORTAL_PAGES)
    .filter((path) => path !== PORTAL_PAGES.clientDashboard && path !== PORTAL_PAGES.nodeDashboard)
    .map((path) => ({ path })),
  { path: PORTAL_PAGES.clientDashboard, as: 'client' },
  { path: PORTAL_PAGES.nodeDashboard, as: 'node' },
  { path: '/no/such/page' },
];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core in the page: the serious and critical WCAG 2.1 A/AA violations. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol: the page's CSP (no inline script) stays as it is.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    interface AxeResult {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: unknown[] }[];
      }[];
    }
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResult> } })
      .axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      }));
  });
}

async function openRoute(route: Route, locale: string, viewport?: typeof MOBILE): Promise<Page> {
  const account = route.as ? accounts[route.as] : undefined;
  const page = await suite.openPage({ account, locale, viewport });
  await page.goto(route.path, { waitUntil: 'networkidle' });
  await page.locator('h1').first().waitFor();
  if (account) await page.getByTestId('profile-menu').waitFor({ state: 'attached' });
  // Lazy parts (charts, statements) settle, and transitions end, before the audit.
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  return page;
}

describe.each([
  ['en-US', undefined],
  ['fa-IR', MOBILE],
] as const)('axe-core in %s', (locale, viewport) => {
  it.each(ROUTES.map((route) => [route.path, route] as const))(
    '%s has no serious or critical violation',
    async (_path, route) => {
      const page = await openRoute(route, locale, viewport);
      expect(await seriousViolations(page)).toEqual([]);
    },
  );
});

describe('the audit itself', () => {
  it('reports an image link without a name and text without contrast', async () => {
    const page = await openRoute({ path: '/' }, 'en-US');
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '/';
      link.innerHTML = '<svg width="10" height="10"></svg>';
      const faint = document.createElement('p');
      faint.textContent = 'faint';
      faint.style.color = '#eeeeee';
      faint.style.background = '#ffffff';
      document.getElementById('main')?.append(link, faint);
    });
    const ids = (await seriousViolations(page)).map((violation) => violation.id);
    expect(ids).toEqual(expect.arrayContaining(['link-name', 'color-contrast']));
  });
});

describe('focus after a dialog', () => {
  it('returns to the button that opened it, after Escape and after the close button', async () => {
    const page = await openRoute({ path: '/' }, 'en-US');
    const opener = page.getByTestId('hero-cta').getByRole('button').first();
    await opener.evaluate((element) => element.setAttribute('data-opener', ''));
    for (const close of ['Escape', 'button'] as const) {
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      if (close === 'Escape') await page.keyboard.press('Escape');
      else await dialog.getByRole('button', { name: 'Close dialog' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(
        await page.evaluate(() => document.activeElement?.hasAttribute('data-opener') ?? false),
      ).toBe(true);
    }
  });
});
