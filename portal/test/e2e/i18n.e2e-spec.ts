import { randomBytes, randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { MOBILE } from './support/browser';
import { overflowing } from './support/i18n';
import { insertOperator } from './support/market';
import { collectProblems, registerAccount } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * The portal's languages in the browser (docs/i18n.md): the language follows the browser's,
 * Persian lays the page out right to left by `dir` alone, the switcher changes language and is
 * remembered, nothing overflows a 390 px phone, and the market's search finds a country by its
 * Persian, Russian or Chinese name.
 */

const suite = browserSuite();
const { openPage } = suite;

async function documentLanguage(page: Page): Promise<{ lang: string; dir: string }> {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
  }));
}

beforeAll(async () => {
  const operator = await insertOperator(suite.stack);
  for (const [name, country, location] of [
    ['Frankfurt i18n', 'DE', 'Frankfurt'],
    ['Tokyo i18n', 'JP', 'Tokyo'],
  ] as const) {
    await suite.stack.db.query(
      `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
         country, location, active_clients, ping_ms, uptime_seconds, reliability_at_report,
         last_report_at)
       VALUES ($1, $2, $3, 'agent', 'tier2', $4, '203.0.113.9', $5, $6::jsonb, $7, $8, 1, 30,
         90000, 97, now())`,
      [
        randomUUID(),
        operator,
        name,
        randomBytes(32).toString('hex'),
        country === 'DE' ? 11_001 : 11_002,
        JSON.stringify({ security: 'none', network: 'tcp' }),
        country,
        location,
      ],
    );
  }
});

describe('a Persian browser', () => {
  it('opens the landing in Persian, right to left, without overflowing a phone', async () => {
    const page = await openPage({ locale: 'fa-IR', viewport: MOBILE });
    const problems = collectProblems(page);
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: /همیشه وصل/ }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'fa', dir: 'rtl' });
    // Right to left by `dir` alone: the brand sits at the right edge of the bar.
    const brand = await page.locator('.brand').boundingBox();
    expect(brand!.x + brand!.width).toBeGreaterThan(MOBILE.width / 2);
    expect(await overflowing(page)).toEqual([]);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });

    // The check sees an overflow when there is one: a box 40 px wider than the phone.
    await page.evaluate(() => {
      const wide = document.createElement('div');
      wide.className = 'too-wide';
      wide.style.width = '430px';
      wide.style.height = '10px';
      document.getElementById('main')?.append(wide);
    });
    expect((await overflowing(page)).some((found) => found.startsWith('div.too-wide'))).toBe(true);
  });

  it('switches to Russian from the mobile menu, remembers it, and back to Persian', async () => {
    const page = await openPage({ locale: 'fa-IR', viewport: MOBILE });
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /همیشه وصل/ }).waitFor();

    await page.getByTestId('mobile-menu-toggle').click();
    await page.getByTestId('mobile-language-switcher').selectOption('ru');
    await page.getByRole('heading', { level: 1, name: /Всегда на связи/ }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'ru', dir: 'ltr' });
    await page.getByTestId('mobile-menu').getByRole('link', { name: 'Серверы' }).waitFor();
    expect(await overflowing(page)).toEqual([]);

    // The stored choice wins over the browser's language on the next visit.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /Всегда на связи/ }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'ru', dir: 'ltr' });

    await page.getByTestId('mobile-menu-toggle').click();
    await page.getByTestId('mobile-language-switcher').selectOption('fa');
    await page.getByRole('heading', { level: 1, name: /همیشه وصل/ }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'fa', dir: 'rtl' });
  });

  it("loads a page's own catalogue in the reader's language, and again on a switch", async () => {
    const page = await openPage({ locale: 'fa-IR' });
    await page.goto('/no/such/page');
    await page.getByRole('heading', { level: 1, name: 'صفحه پیدا نشد' }).waitFor();
    await page.getByTestId('language-switcher').selectOption('zh');
    await page.getByRole('heading', { level: 1, name: '页面未找到' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'zh', dir: 'ltr' });
  });

  it('shows the market in Persian and finds Germany by its Persian name', async () => {
    const page = await openPage({ locale: 'fa-IR', viewport: MOBILE });
    const problems = collectProblems(page);
    await page.goto('/servers');
    await page.getByRole('heading', { level: 1, name: 'سرورهای شبکه' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'fa', dir: 'rtl' });
    await page.getByTestId('market-server-card').first().waitFor();
    // The stats (their own request) in Persian digits.
    await page.waitForFunction(() =>
      /^[۰-۹]+$/.test(
        document.querySelector('[data-testid="market-stat-total"]')?.textContent ?? '',
      ),
    );
    expect(await overflowing(page)).toEqual([]);

    await page.getByTestId('market-search').fill('آلمان');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('search') === 'آلمان');
    // Both servers before the search, one after it (the loading state in between shows none).
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="market-server-card"]').length === 1,
    );
    expect(await page.getByTestId('market-card-name').allInnerTexts()).toEqual(['Frankfurt i18n']);
    expect(await overflowing(page)).toEqual([]);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  });
});

describe('the market search in other languages', () => {
  it.each([
    ['ru-RU', 'Германия', 'Серверы сети'],
    ['zh-CN', '德国', '网络节点'],
    ['en-US', 'Germany', 'Network Servers'],
  ])('in %s finds Germany as %s', async (locale, term, heading) => {
    const page = await openPage({ locale });
    await page.goto(`/servers?search=${encodeURIComponent(term)}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page.getByTestId('market-server-card').first().waitFor();
    expect(await page.getByTestId('market-card-name').allInnerTexts()).toEqual(['Frankfurt i18n']);
  });

  it('switches language from the desktop top bar', async () => {
    const page = await openPage();
    await page.goto('/servers');
    await page.getByRole('heading', { level: 1, name: 'Network Servers' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'en', dir: 'ltr' });
    await page.getByTestId('language-switcher').selectOption('zh');
    await page.getByRole('heading', { level: 1, name: '网络节点' }).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'zh', dir: 'ltr' });
    // The URL stays the same in every language.
    expect(new URL(page.url()).pathname).toBe('/servers');
  });
});

describe("the account's saved language", () => {
  it('is saved by the switcher when signed in and follows the account to another browser', async () => {
    const account = await registerAccount(suite.stack, 'client');
    const first = await openPage({ account });
    await first.goto('/servers');
    await first.getByRole('heading', { level: 1, name: 'Network Servers' }).waitFor();
    await first.getByTestId('language-switcher').selectOption('fa');
    await first.getByRole('heading', { level: 1, name: 'سرورهای شبکه' }).waitFor();
    const saved = async () =>
      (await suite.stack.db.query(`SELECT locale FROM accounts WHERE uuid = $1`, [account.uuid]))[0]
        ?.locale;
    for (let i = 0; i < 50 && (await saved()) !== 'fa'; i += 1) await first.waitForTimeout(100);
    expect(await saved()).toBe('fa');

    // Another browser, in English and with nothing stored but the session: the account's
    // language wins once the profile arrives.
    const second = await openPage({ account, locale: 'en-US' });
    await second.goto('/servers');
    await second.getByRole('heading', { level: 1, name: 'سرورهای شبکه' }).waitFor();
    expect(await documentLanguage(second)).toEqual({ lang: 'fa', dir: 'rtl' });
  });
});
