import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SUBSCRIPTION_ROUTES } from '@scn/proto';
import type { Page } from 'playwright-core';
import { insertServers } from '../../../control-plane/test/support/market-fixtures';
import { DESKTOP, MOBILE } from './support/browser';
import { depositThroughChain } from './support/deposits';
import { type Account, collectProblems, registerAccount } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * `npm run screenshots` (SCN_SCREENSHOTS=1): every route at 1280 and 390 px wide, full page, in
 * every language: English into docs/screenshots/<name>-desktop.png and <name>-mobile.png (with
 * the dialogs), Persian, Russian and Chinese into docs/screenshots/<locale>/. Only a few of the
 * other languages' pictures are committed (.gitignore: the landing, the market and the dashboards
 * at 390 px), so the repository does not grow by a hundred images on every change.
 * SCN_SCREENSHOT_LOCALES=fa,ru limits the languages, SCN_SCREENSHOT_ONLY=landing,servers the pages.
 */

const OUT_DIR = join(__dirname, '..', '..', '..', 'docs', 'screenshots');

const LOCALES = (process.env.SCN_SCREENSHOT_LOCALES ?? 'en,fa,ru,zh')
  .split(',')
  .map((locale) => locale.trim())
  .filter(Boolean);

/** The browser language of each of the portal's languages. */
const BROWSER_LOCALE: Record<string, string> = {
  en: 'en-US',
  fa: 'fa-IR',
  ru: 'ru-RU',
  zh: 'zh-CN',
};

const suite = browserSuite({ solana: true, depositAddresses: true });
const accounts: Partial<Record<'client' | 'node', Account>> = {};

beforeAll(async () => {
  mkdirSync(OUT_DIR, { recursive: true });
  accounts.client = await registerAccount(suite.stack, 'client', { email: 'ada@example.com' });
  accounts.node = await registerAccount(suite.stack, 'node', { email: 'grace@example.com' });
  // A real deposit on the local chain, so the wallet panel shows a balance and a transaction.
  await depositThroughChain(suite.stack, accounts.client, 45);
  // A market with Grace's servers (as enrolled agents leave them after a fresh report), and a
  // subscription of Ada's to two of them, bought through the API: every dashboard has content.
  const ids = await insertServers(
    suite.stack.db,
    MARKET.map((server, index) => ({
      ownerUuid: accounts.node!.uuid,
      host: `203.0.113.${10 + index}`,
      activeClients: index % 3,
      uptimeSeconds: (40 + index * 170) * 3600,
      ...server,
    })),
    new Date(),
  );
  const response = await fetch(`${suite.stack.baseUrl}${SUBSCRIPTION_ROUTES.create}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Bearer ${accounts.client.token}`,
    },
    body: JSON.stringify({ uuid: accounts.client.uuid, serverIds: ids.slice(0, 2) }),
  });
  if (!response.ok) throw new Error(`create-subscription answered ${response.status}`);
});

const MARKET = [
  {
    name: 'Frankfurt 1',
    country: 'DE',
    location: 'Frankfurt',
    pingMs: 18,
    reliabilityAtReport: 100,
  },
  {
    name: 'Amsterdam Edge',
    country: 'NL',
    location: 'Amsterdam',
    pingMs: 24,
    reliabilityAtReport: 98,
  },
  {
    name: 'Helsinki North',
    country: 'FI',
    location: 'Helsinki',
    pingMs: 41,
    reliabilityAtReport: 100,
  },
  { name: 'Tokyo Bay', country: 'JP', location: 'Tokyo', pingMs: 162, reliabilityAtReport: 96 },
  {
    name: 'Toronto Lake',
    country: 'CA',
    location: 'Toronto',
    pingMs: 95,
    reliabilityAtReport: 100,
  },
  {
    name: 'Singapore Core',
    country: 'SG',
    location: 'Singapore',
    pingMs: 188,
    reliabilityAtReport: 97,
  },
];

interface Shot {
  name: string;
  path: string;
  /** The h1 that shows the page is rendered (English; other languages wait for any h1). */
  heading: string;
  as?: 'client' | 'node';
  /** Extra steps before the picture (open a dialog, ...). */
  prepare?: (page: Page) => Promise<void>;
  /**
   * Only the viewport: a modal's fixed backdrop covers the viewport, so a full-page picture
   * would show the rest of the page undimmed, which no visitor ever sees.
   */
  viewportOnly?: boolean;
}

const SHOTS: Shot[] = [
  { name: 'landing', path: '/', heading: 'Stay Connected. Stay Invisible.' },
  { name: 'servers', path: '/servers', heading: 'Network Servers' },
  { name: 'security', path: '/security', heading: 'Security & Protection' },
  { name: 'our-view', path: '/our-view', heading: 'Our View' },
  { name: 'economics-clients', path: '/economics#clients', heading: 'Service Economics' },
  {
    name: 'economics-node-operators',
    path: '/economics#node-operators',
    heading: 'Service Economics',
  },
  { name: 'documentation', path: '/documentation', heading: 'Documentation' },
  { name: 'faqs', path: '/faqs', heading: 'Frequently Asked Questions' },
  { name: 'support', path: '/support', heading: 'Support Center' },
  { name: 'privacy-policy', path: '/privacy-policy', heading: 'Protection Policy' },
  { name: 'terms', path: '/terms', heading: 'Terms of Service' },
  { name: 'not-found', path: '/no/such/page', heading: 'Page not found' },
  {
    name: 'client-dashboard',
    path: '/client-dashboard',
    heading: 'Client Dashboard',
    as: 'client',
  },
  { name: 'node-dashboard', path: '/node-dashboard', heading: 'Node Dashboard', as: 'node' },
  {
    name: 'download-apps-dialog',
    path: '/client-dashboard',
    heading: 'Client Dashboard',
    as: 'client',
    viewportOnly: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Download Client App' }).click();
      const dialog = page.getByRole('dialog', { name: 'Download Client App' });
      await dialog.getByTestId('checksum').first().filter({ hasNotText: 'Calculating' }).waitFor();
    },
  },
  {
    name: 'subscription-qr-dialog',
    path: '/client-dashboard',
    heading: 'Client Dashboard',
    as: 'client',
    viewportOnly: true,
    prepare: async (page) => {
      await page.getByTestId('show-qr').first().click();
      const dialog = page.getByRole('dialog', { name: 'Subscription QR Code' });
      await dialog.getByTestId('qr-ready').waitFor();
    },
  },
  {
    // Pausing says which pause it uses before it acts.
    name: 'pause-subscription-dialog',
    path: '/client-dashboard',
    heading: 'Client Dashboard',
    as: 'client',
    viewportOnly: true,
    prepare: async (page) => {
      await page.getByTestId('pause-subscription').first().click();
      await page.getByTestId('pause-subscription-dialog').waitFor();
    },
  },
  {
    // Card deposits shown as coming later, not as an equal choice.
    name: 'deposit-dialog',
    path: '/client-dashboard',
    heading: 'Client Dashboard',
    as: 'client',
    viewportOnly: true,
    prepare: async (page) => {
      await page.getByTestId('client-wallet').getByRole('button', { name: 'Deposit' }).click();
      await page.getByRole('dialog', { name: 'Deposit SSL' }).waitFor();
    },
  },
  {
    // The account's own address, its QR, currencies, rates and minimums.
    name: 'deposit-address',
    path: '/client-dashboard',
    heading: 'Client Dashboard',
    as: 'client',
    viewportOnly: true,
    prepare: async (page) => {
      await page.getByTestId('client-wallet').getByRole('button', { name: 'Deposit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Deposit SSL' });
      await dialog.getByRole('button', { name: /Cryptocurrency/ }).click();
      await dialog.getByTestId('address-deposit').waitFor();
    },
  },
  {
    // Telegram beside X and Instagram, and the warning before sharing.
    name: 'share-dialog',
    path: '/client-dashboard',
    heading: 'Client Dashboard',
    as: 'client',
    viewportOnly: true,
    prepare: async (page) => {
      await page.getByTestId('earn-ssl-open').click();
      await page.getByTestId('share-dialog').waitFor();
    },
  },
  {
    name: 'auth-dialog',
    path: '/',
    heading: 'Stay Connected. Stay Invisible.',
    viewportOnly: true,
    prepare: async (page) => {
      await page.getByRole('button', { name: 'Get Started as Client' }).click();
      await page.getByRole('dialog', { name: 'Sign Up as Client' }).waitFor();
    },
  },
];

const VIEWPORTS = [
  { label: 'desktop', viewport: DESKTOP },
  { label: 'mobile', viewport: MOBILE },
] as const;

async function capture(
  shot: Shot,
  label: string,
  viewport: typeof DESKTOP,
  locale: string,
): Promise<string> {
  const account = shot.as ? accounts[shot.as] : undefined;
  const page = await suite.openPage({ viewport, account, locale: BROWSER_LOCALE[locale] });
  const problems = collectProblems(page);
  await page.goto(shot.path, { waitUntil: 'networkidle' });
  if (locale === 'en') {
    await page.getByRole('heading', { level: 1, name: shot.heading }).waitFor();
  } else {
    await page.locator('h1').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
  }
  if (account) await page.getByTestId('profile-menu').waitFor({ state: 'attached' });
  await shot.prepare?.(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // No page may scroll sideways, at any width (wide tables scroll inside their own region).
  const widths = await page.evaluate(() => {
    const viewport = window.innerWidth;
    // The innermost elements that reach past the viewport: where a sideways scroll comes from.
    const wide = [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((element) => element.getBoundingClientRect().right > viewport + 0.5)
      // Inside a region that scrolls or clips sideways, an element does not widen the page.
      .filter((element) => {
        for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
          if (getComputedStyle(up).overflowX !== 'visible') return false;
        }
        return true;
      })
      .filter(
        (element) =>
          ![...element.children].some(
            (child) => child.getBoundingClientRect().right > viewport + 0.5,
          ),
      )
      .slice(0, 5)
      .map((element) => {
        const name = (node: Element | null) =>
          node ? `${node.tagName.toLowerCase()}.${[...node.classList].join('.')}` : '';
        return `${name(element.parentElement)} > ${name(element)}`;
      });
    return { page: document.documentElement.scrollWidth, viewport, wide };
  });
  expect({ page: widths.page, wide: widths.page > widths.viewport ? widths.wide : [] }).toEqual({
    page: expect.any(Number) as number,
    wide: [],
  });
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  const dir = locale === 'en' ? OUT_DIR : join(OUT_DIR, locale);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${shot.name}-${label}.png`);
  await page.screenshot({ path: file, fullPage: !shot.viewportOnly, animations: 'disabled' });
  expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  return file;
}

const ONLY = process.env.SCN_SCREENSHOT_ONLY?.split(',').map((name) => name.trim());

describe.each(LOCALES)('screenshots in %s', (locale) => {
  // The dialogs are opened by their English names: English only. Every page in every language.
  const shots = (locale === 'en' ? SHOTS : SHOTS.filter((shot) => !shot.prepare)).filter(
    (shot) => !ONLY || ONLY.includes(shot.name),
  );
  it.each(shots.map((shot) => [shot.name, shot] as const))('%s', async (_name, shot) => {
    for (const { label, viewport } of VIEWPORTS) {
      const file = await capture(shot, label, viewport, locale);
      expect(statSync(file).size).toBeGreaterThan(5_000);
    }
  });
});
