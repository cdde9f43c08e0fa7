import { randomBytes, randomUUID } from 'node:crypto';
import { ECONOMICS, PRICING, VPS_TIERS, tierMonthlyIncome } from '@scn/proto';
import type { Locator, Page } from 'playwright-core';
import { MOBILE } from './support/browser';
import { insertOperator } from './support/market';
import { collectProblems } from './support/portal';
import type { Stack } from './support/stack';
import { browserSuite } from './support/suite';

/**
 * The Economics page and the launch period tell the truth: the launch period comes
 * from LAUNCH_PERIOD_ENDS and the server's clock, so after it no page claims free access; the
 * tiers' income is `tierMonthlyIncome` of @scn/proto; the share hours and the daily cap are what
 * the payout rules pay; the withdrawal fee and the freeze are stated before an operator signs up;
 * and the page reads right to left in Persian on a phone.
 */

const en = (value: number) => value.toLocaleString('en-US');
const ssl = (value: number) => `${en(value)} SSL`;
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The browser-visible text of the page's main region. */
async function mainText(page: Page): Promise<string> {
  return words(await page.locator('main').innerText());
}

/** The same check as i18n.e2e-spec.ts: nothing reaches past the viewport's edges. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const clipped = (element: Element): boolean => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') return true;
      }
      return false;
    };
    for (const element of document.body.querySelectorAll('*')) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.position === 'fixed') continue;
      if (element.closest('.sr-only, svg')) continue;
      if ((rect.right > width + 1 || rect.left < -1) && !clipped(element)) {
        found.push(`${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`);
      }
    }
    // A table that scrolls sideways inside its box hides figures on a phone: none may.
    for (const wrap of document.querySelectorAll('.table-wrap')) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        found.push(
          `table ${wrap.getAttribute('aria-label')} ${wrap.scrollWidth} > ${wrap.clientWidth}`,
        );
      }
    }
    if (document.documentElement.scrollWidth > width + 1) {
      found.push(`document scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    }
    return found;
  });
}

/** Latin-script words in the page's own text (header and tabs), but for the names it keeps. */
async function latinWords(page: Page): Promise<string[]> {
  const allowed = new Set(['SSL', 'SOL', 'SCN', 'VPS', 'Solana']);
  const text = (await page.locator('.info-hero, .econ-tabs').allInnerTexts()).join(' ');
  return [...text.matchAll(/[A-Za-z][\w-]*/g)]
    .map((match) => match[0])
    .filter((word) => !allowed.has(word));
}

async function addServer(stack: Stack): Promise<void> {
  const operator = await insertOperator(stack);
  await stack.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound,
       country, location, active_clients, ping_ms, uptime_seconds, reliability_at_report,
       last_report_at)
     VALUES ($1, $2, 'Lisbon launch', 'agent', 'tier2', $3, '203.0.113.7', 11003, $4::jsonb,
       'PT', 'Lisbon', 0, 30, 90000, 100, now())`,
    [
      randomUUID(),
      operator,
      randomBytes(32).toString('hex'),
      JSON.stringify({ security: 'none', network: 'tcp' }),
    ],
  );
}

async function pageMeta(page: Page, name: string): Promise<string | null> {
  return page.locator(`meta[name="scn:${name}"]`).getAttribute('content');
}

describe('after the launch period (LAUNCH_PERIOD_ENDS in the past)', () => {
  const suite = browserSuite({ env: { LAUNCH_PERIOD_ENDS: '2020-01-31' } });
  const { openPage } = suite;

  beforeAll(async () => addServer(suite.stack));

  it('no page claims free access: landing, market and Economics', async () => {
    const page = await openPage();
    const problems = collectProblems(page);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await pageMeta(page, 'launch-period-ends')).toBe('2020-01-31T23:59:59.999Z');
    expect(await pageMeta(page, 'launch-period-active')).toBe('false');
    expect(await page.getByTestId('launch-banner').count()).toBe(0);
    expect(await mainText(page)).not.toMatch(/complimentary|launch period/i);

    await page.goto('/servers');
    await page.getByTestId('market-server-card').first().waitFor();
    expect(await page.getByTestId('market-card-price').allInnerTexts()).toEqual([
      ssl(PRICING.monthlyPerServerSsl),
    ]);
    expect(await mainText(page)).not.toMatch(/complimentary|launch period/i);

    await page.goto('/economics#clients');
    await page.getByRole('heading', { level: 2, name: 'The SSL credit' }).waitFor();
    expect(await page.getByTestId('econ-launch-period').count()).toBe(0);
    expect(await mainText(page)).not.toMatch(/complimentary|launch period/i);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  });

  it('nor in Persian', async () => {
    const page = await openPage({ locale: 'fa-IR' });
    await page.goto('/economics#clients');
    await page.getByRole('heading', { level: 1, name: 'اقتصاد سرویس' }).waitFor();
    expect(await page.getByTestId('econ-launch-period').count()).toBe(0);
    expect(await mainText(page)).not.toMatch(/دوره راه‌اندازی|تا .* رایگان است/);
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.getByTestId('launch-banner').count()).toBe(0);
  });

  it("shows each tier's base, client rewards and total as tierMonthlyIncome computes them", async () => {
    const page = await openPage();
    await page.goto('/economics#node-operators');
    await page.getByRole('heading', { level: 2, name: 'Hardware tiers' }).waitFor();
    const rows = page.getByRole('table', { name: 'VPS tiers of the node setup wizard' });
    for (const tier of VPS_TIERS) {
      const income = tierMonthlyIncome(tier);
      const row = rows.getByRole('row').filter({ has: page.locator(`[data-tier="${tier.id}"]`) });
      const cell = (id: string) => row.getByTestId(id).innerText();
      expect({
        tier: tier.id,
        base: await cell('econ-tier-base'),
        clients: await cell('econ-tier-clients'),
        rule: await cell('econ-tier-clients-rule'),
        total: await cell('econ-tier-total'),
      }).toEqual({
        tier: tier.id,
        base: ssl(income.baseSsl),
        clients: ssl(income.maxClients * income.perClientSsl),
        rule: `up to ${en(income.maxClients)} × ${ssl(income.perClientSsl)}`,
        total: ssl(income.baseSsl + income.clientsSsl),
      });
    }
    // The wizard's promise for tier 1, and its statement's base, read from the same source.
    const tier1 = tierMonthlyIncome(VPS_TIERS[0]!);
    expect([tier1.baseSsl, tier1.clientsSsl, tier1.totalSsl]).toEqual([250, 100, 350]);
  });

  it('states the share hours, weekday and weekend, and the daily cap the payout rules apply', async () => {
    const page = await openPage();
    const prime =
      '1 SSL at prime time, your local time: weekdays 12:00–13:30 and 20:00–21:30; ' +
      'Saturday and Sunday 10:00–16:00 and 19:00–22:00.';
    const cap =
      'At most 1 SSL from shares in any 24 hours: a share is paid what is left of it, so a ' +
      'prime-time share after a 0.1 SSL one pays 0.9 SSL.';
    const readRules = async (rules: Locator) => ({
      prime: words(await rules.getByTestId('econ-share-prime').innerText()),
      cap: words(await rules.getByTestId('econ-share-cap').innerText()),
      text: words(await rules.innerText()),
    });

    await page.goto('/economics#clients');
    const clients = await readRules(page.getByTestId('econ-share-rules'));
    expect(clients.prime).toBe(prime);
    expect(clients.cap).toBe(cap);
    expect(clients.text).toContain('0.1 SSL at any other time.');
    expect(clients.text).toContain(
      'One share per platform every 7 days; the reward is paid 24 hours later if the post is still up.',
    );

    await page.getByRole('tab', { name: 'For Node Operators' }).click();
    const adBonus = words(await page.getByTestId('econ-ad-bonus').innerText());
    expect(adBonus).toContain('share-and-earn rules below');
    expect(adBonus).toContain(`frozen ${PRICING.operatorRewardFrozenDays} days`);
    const operators = await readRules(page.getByTestId('econ-share-rules'));
    expect(operators.prime).toBe(prime);
    expect(operators.cap).toBe(cap);
    // The old promise the payout rules never kept.
    expect(await mainText(page)).not.toMatch(/7-10 pm|peak hours/i);
  });

  it('states the withdrawal fee and the freeze before an operator signs up', async () => {
    const page = await openPage();
    const terms = `Rewards frozen ${PRICING.operatorRewardFrozenDays} days; ${ECONOMICS.withdrawalProtocolFeePercent}% fee on withdrawals`;
    await page.goto('/');
    await page.getByTestId('top-bar').getByRole('button', { name: 'Sign Up', exact: true }).click();
    const chooser = page.getByRole('dialog', { name: 'Select Your Account Type' });
    const operator = chooser.getByTestId('choose-node');
    expect(await operator.getByTestId('choose-node-terms').innerText()).toBe(terms);
    // Read to a screen reader with the option, as its description.
    expect(await operator.getAttribute('aria-describedby')).toBe('choice-node-description');
    expect(await page.locator('#choice-node-description').innerText()).toContain(terms);
    expect(await chooser.getByTestId('choose-client').innerText()).not.toContain('fee');
    await operator.click();
    const dialog = page.getByTestId('auth-dialog');
    await dialog.getByRole('heading', { name: 'Sign Up as Node Operator' }).waitFor();
    expect(await dialog.getByTestId('auth-node-terms').innerText()).toBe(terms);

    await page.goto('/economics#node-operators');
    const callout = words(await page.getByTestId('econ-operator-terms').innerText());
    expect(callout).toBe(
      'Before you sign up: operator rewards stay frozen for 60 days before they can be withdrawn, ' +
        'and every withdrawal pays a 25% protocol fee (75 SSL of every 100 SSL reaches you).',
    );
    expect(words(await page.getByTestId('econ-withdrawal-fee').innerText())).toBe(
      '25% protocol contribution on withdrawal',
    );
    expect(words(await page.getByTestId('econ-frozen-days').innerText())).toBe(
      '60 days rewards stay frozen before withdrawal',
    );
  });

  it('states them in Persian too, in Persian digits', async () => {
    const page = await openPage({ locale: 'fa-IR' });
    await page.goto('/');
    await page.getByTestId('top-bar').getByRole('button', { name: 'ثبت‌نام', exact: true }).click();
    const terms = await page.getByTestId('choose-node-terms').innerText();
    expect(terms).toContain('۶۰ روز');
    expect(terms).toContain('۲۵٪');
    expect(terms).not.toMatch(/[0-9]/);
  });

  it('reads right to left in Persian on a phone, in Persian digits, nothing overflowing', async () => {
    const page = await openPage({ locale: 'fa-IR', viewport: MOBILE });
    const problems = collectProblems(page);
    await page.goto('/economics#clients');
    await page.getByRole('heading', { level: 1, name: 'اقتصاد سرویس' }).waitFor();
    expect(
      await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
    ).toEqual(['fa', 'rtl']);
    await page.getByRole('tab', { name: 'برای کاربران' }).waitFor();
    const clients = await mainText(page);
    expect(clients).toContain('۱۰ SSL');
    expect(clients).toContain('۱۲:۰۰ تا ۱۳:۳۰');
    expect(clients).toContain('۰٫۹ SSL');
    expect(await overflowing(page)).toEqual([]);
    expect(await latinWords(page)).toEqual([]);

    await page.getByRole('tab', { name: 'برای اپراتورهای نود' }).click();
    await page.getByTestId('live-economy').locator('dl').waitFor();
    const totals = await page.getByTestId('econ-tier-total').allInnerTexts();
    expect(totals).toEqual(
      VPS_TIERS.map((tier) => `${tierMonthlyIncome(tier).totalSsl.toLocaleString('fa-IR')} SSL`),
    );
    expect(totals[0]).toBe('۳۵۰ SSL');
    expect(await overflowing(page)).toEqual([]);

    expect(await latinWords(page)).toEqual([]);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  });
});

describe('during the launch period (LAUNCH_PERIOD_ENDS in the future)', () => {
  const suite = browserSuite({ env: { LAUNCH_PERIOD_ENDS: '2099-12-31' } });
  const { openPage } = suite;
  const lastDay = (tag: string) =>
    new Intl.DateTimeFormat(tag, {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date('2099-12-31T00:00:00Z'));

  it.each([
    ['en-US', 'en-US', 'Access is complimentary through'],
    ['fa-IR', 'fa-IR', 'رایگان'],
    ['ru-RU', 'ru-RU', 'бесплатный'],
    ['zh-CN', 'zh-Hans-CN', '免费'],
  ])(
    'the banner and the Economics page show the last day in %s',
    async (browserLocale, tag, claim) => {
      const page = await openPage({ locale: browserLocale });
      await page.goto('/');
      const banner = page.getByTestId('launch-banner');
      await banner.waitFor();
      expect(await pageMeta(page, 'launch-period-active')).toBe('true');
      const text = words(await banner.innerText());
      expect(text).toContain(lastDay(tag));
      expect(text).toContain(claim);

      await page.goto('/economics#clients');
      const callout = page.getByTestId('econ-launch-period');
      await callout.waitFor();
      expect(words(await callout.innerText())).toContain(lastDay(tag));
    },
  );

  it('says so on the Economics page in English as before', async () => {
    const page = await openPage();
    await page.goto('/economics#clients');
    expect(words(await page.getByTestId('econ-launch-period').innerText())).toBe(
      'Launch period: access is complimentary through December 31, 2099. The prices below are the standard rates that apply afterwards.',
    );
  });
});
