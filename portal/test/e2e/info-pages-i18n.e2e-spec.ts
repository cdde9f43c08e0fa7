import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ECONOMICS, PRICING } from '@scn/proto';
import type { Page } from 'playwright-core';
import { MOBILE } from './support/browser';
import { overflowing } from './support/i18n';
import { PASSWORD, collectProblems, uniqueEmail } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Security, Our View, the Protection Policy, the Terms and the terms dialog in the reader's
 * language (docs/i18n.md): Persian right to left without overflowing a 390 px phone,
 * Russian and Chinese; the legal pages keep their Latin anchors and date the last update in the
 * reader's calendar; Our View claims free access only while the launch period lasts.
 */

const suite = browserSuite();
const { openPage } = suite;

type Catalogue = { [key: string]: string | Catalogue };

/** A message of a catalogue of the portal, as the reader sees it (the expected text). */
function message(namespace: string, locale: string, key: string): string {
  const file = namespace === 'translation' ? `${locale}.json` : join(namespace, `${locale}.json`);
  let value: string | Catalogue = JSON.parse(
    readFileSync(join(__dirname, '../../src/locales', file), 'utf8'),
  ) as Catalogue;
  for (const part of key.split('.')) {
    if (typeof value === 'string' || !(part in value)) throw new Error(`No ${namespace}:${key}`);
    value = value[part]!;
  }
  if (typeof value !== 'string') throw new Error(`${namespace}:${key} is not a message`);
  return value;
}

/** Each page, the namespace and key of its h1, and an anchor it must keep in every language. */
const PAGES = [
  { path: '/security', namespace: 'security', title: 'title', anchor: 'port-management' },
  { path: '/our-view', namespace: 'our-view', title: 'title', anchor: 'tier-model' },
  { path: '/privacy-policy', namespace: 'legal', title: 'privacy.title', anchor: 'no-logs-policy' },
  { path: '/terms', namespace: 'legal', title: 'terms.title', anchor: 'node-operator-terms' },
] as const;

async function documentLanguage(page: Page): Promise<{ lang: string; dir: string }> {
  return page.evaluate(() => ({
    lang: document.documentElement.lang,
    dir: document.documentElement.dir,
  }));
}

async function heading(page: Page): Promise<string> {
  const h1 = page.getByRole('heading', { level: 1 });
  await h1.waitFor();
  return (await h1.innerText()).replace(/\s+/g, ' ').trim();
}

describe('the information and legal pages in Persian', () => {
  it.each(PAGES)(
    '$path is in Persian, right to left, and fits a 390 px phone',
    async ({ path, namespace, title, anchor }) => {
      const page = await openPage({ locale: 'fa-IR', viewport: MOBILE });
      const problems = collectProblems(page);
      await page.goto(path, { waitUntil: 'networkidle' });
      const expected = message(namespace, 'fa', title);
      expect(expected).toMatch(/[\u0600-\u06FF]/);
      await page.getByRole('heading', { level: 1, name: expected }).waitFor();
      expect(await heading(page)).toBe(expected);
      expect(await documentLanguage(page)).toEqual({ lang: 'fa', dir: 'rtl' });
      // The anchors stay the Latin ids the links and the table of contents point at.
      expect(await page.locator(`section#${anchor}`).count()).toBe(1);
      expect(await page.locator(`nav a[href="#${anchor}"]`).count()).toBe(1);
      expect(await overflowing(page)).toEqual([]);
      expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
    },
  );

  it('dates the legal texts in the Solar Hijri calendar and says the English text prevails', async () => {
    const page = await openPage({ locale: 'fa-IR', viewport: MOBILE });
    await page.goto('/terms');
    await page
      .getByRole('heading', { level: 1, name: message('legal', 'fa', 'terms.title') })
      .waitFor();
    const updated = page.locator('time[datetime="2025-05-06"]');
    // 6 May 2025 is 16 Ordibehesht 1404.
    expect(await updated.innerText()).toBe('۱۶ اردیبهشت ۱۴۰۴');
    expect(await page.getByTestId('legal-translation-notice').innerText()).toBe(
      message('legal', 'fa', 'document.translationNotice'),
    );
    // The numbered headings in Persian digits, the fee and the freeze from @scn/proto.
    const operators = page.locator('section#node-operator-terms');
    expect(await operators.getByRole('heading', { level: 2 }).innerText()).toMatch(/^۳\./);
    const digits = (value: number) => value.toLocaleString('fa-IR');
    const text = await operators.innerText();
    expect(text).toContain(`${digits(ECONOMICS.withdrawalProtocolFeePercent)}٪`);
    expect(text).toContain(`${digits(PRICING.operatorRewardFrozenDays)} روز`);
  });
});

describe('the information and legal pages in Russian and Chinese', () => {
  for (const [locale, browserLocale] of [
    ['ru', 'ru-RU'],
    ['zh', 'zh-CN'],
  ] as const) {
    it.each(PAGES)(`$path in ${locale}`, async ({ path, namespace, title }) => {
      const page = await openPage({ locale: browserLocale, viewport: MOBILE });
      const problems = collectProblems(page);
      await page.goto(path, { waitUntil: 'networkidle' });
      const expected = message(namespace, locale, title);
      await page.getByRole('heading', { level: 1, name: expected }).waitFor();
      expect(await heading(page)).toBe(expected);
      expect(await documentLanguage(page)).toEqual({ lang: locale, dir: 'ltr' });
      expect(await overflowing(page)).toEqual([]);
      expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
    });
  }

  it('the English pages carry no translation notice', async () => {
    const page = await openPage();
    await page.goto('/privacy-policy');
    await page.getByRole('heading', { level: 1, name: 'Protection Policy' }).waitFor();
    expect(await page.locator('time[datetime="2025-05-06"]').innerText()).toBe('May 6, 2025');
    expect(await page.getByTestId('legal-translation-notice').count()).toBe(0);
  });
});

/** The page as the control plane sends it while the launch period applies by its clock. */
async function servedDuringLaunchPeriod(page: Page): Promise<void> {
  await page.route('**/our-view', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      /(<meta name="scn:launch-period-active" content=")[^"]*(")/,
      '$1true$2',
    );
    await route.fulfill({ response, body: html });
  });
}

describe('Our View and the launch period', () => {
  it('claims no free access once the launch period has ended', async () => {
    // The stack's launch period is the default (through 2025-12-31), and today is after it.
    expect(Date.now()).toBeGreaterThan(Date.parse(`${PRICING.launchPeriodEnds}T23:59:59.999Z`));
    const page = await openPage();
    await page.goto('/our-view');
    const adoption = page.getByTestId('our-view-adoption');
    await adoption.waitFor();
    expect(await adoption.locator('li').count()).toBe(3);
    expect(await page.getByTestId('our-view-launch-period').count()).toBe(0);
    expect(await page.locator('main').innerText()).not.toMatch(/complimentary|free/i);
  });

  it('states the last day while the launch period lasts, in the reader’s calendar', async () => {
    const page = await openPage({ locale: 'fa-IR' });
    // The browser's clock inside the launch period, and the page as the server sent it then (its
    // clock said the period applied); the end comes from the page's meta tag.
    await page.clock.setFixedTime(new Date('2025-06-01T12:00:00Z'));
    await servedDuringLaunchPeriod(page);
    await page.goto('/our-view');
    const claim = page.getByTestId('our-view-launch-period');
    await claim.waitFor();
    // 31 December 2025 is 10 Dey 1404.
    expect(await claim.innerText()).toContain('۱۰ دی ۱۴۰۴');

    const english = await openPage();
    await english.clock.setFixedTime(new Date('2025-06-01T12:00:00Z'));
    await servedDuringLaunchPeriod(english);
    await english.goto('/our-view');
    expect(await english.getByTestId('our-view-launch-period').innerText()).toBe(
      'Access is complimentary during the launch period, through December 31, 2025.',
    );
  });
});

describe('the terms dialog at sign-up', () => {
  it('is in Persian, right to left, and creates the account once both boxes are ticked', async () => {
    const page = await openPage({ locale: 'fa-IR', viewport: MOBILE });
    const problems = collectProblems(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1, name: /همیشه وصل/ }).waitFor();
    await page.getByTestId('hero-cta').getByRole('button').first().click();
    const signUp = page.getByTestId('auth-dialog');
    await signUp.waitFor();
    const email = uniqueEmail('fa-terms');
    await signUp.locator('#auth-email').fill(email);
    await signUp.locator('#auth-password').fill(PASSWORD);
    const since = suite.stack.smtp.mails.length;
    await signUp.getByTestId('send-code').click();
    await signUp.locator('#auth-code').fill(await suite.stack.smtp.codeFor(email, since));
    await signUp.getByTestId('auth-submit').click();

    const legal = (key: string) => message('legal', 'fa', key);
    const terms = page.getByRole('dialog', { name: legal('dialog.title') });
    await terms.waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: 'fa', dir: 'rtl' });
    await terms.getByRole('heading', { name: legal('dialog.termsHeading') }).waitFor();
    await terms.getByRole('heading', { name: legal('dialog.privacyHeading') }).waitFor();
    const summary = await terms.innerText();
    expect(summary).toContain('مسئولیت‌های حساب.');
    expect(summary).not.toMatch(/Terms of Service|Protection Policy|Accept/);
    // No Latin word at all: the dialog names no app, unit or protocol.
    expect(summary.match(/[A-Za-z]{2,}/g) ?? []).toEqual([]);

    const accept = terms.getByRole('button', { name: legal('dialog.accept') });
    expect(await accept.isDisabled()).toBe(true);
    const termsBox = terms.getByRole('checkbox', { name: /شرایط استفاده از خدمات/ });
    const privacyBox = terms.getByRole('checkbox', { name: /سیاست حفاظت از داده/ });
    expect(await terms.locator('label[for="accept-terms"] a').getAttribute('href')).toBe('/terms');
    expect(await terms.locator('label[for="accept-privacy"] a').getAttribute('href')).toBe(
      '/privacy-policy',
    );
    await termsBox.check();
    expect(await accept.isDisabled()).toBe(true);
    await privacyBox.check();
    expect(await overflowing(page)).toEqual([]);
    await accept.click();
    await terms.waitFor({ state: 'detached' });

    const rows = await suite.stack.db.query<{ terms_version: string }>(
      `SELECT t.terms_version FROM terms_acceptances t JOIN accounts a ON a.uuid = t.account_uuid
        WHERE a.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ terms_version: '1.0' }]);
    expect(problems.pageErrors).toEqual([]);
  });
});
