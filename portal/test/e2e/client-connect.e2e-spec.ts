import { createHash } from 'node:crypto';
import { ANDROID_APKS, SUBSCRIPTION_ROUTES, type ClientChecksumsResponse } from '@scn/proto';
import type { Locator, Page } from 'playwright-core';
import { MOBILE } from './support/browser';
import { depositThroughChain } from './support/deposits';
import { insertListedServer, insertOperator, marketCard } from './support/market';
import { type Account, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Connecting from a phone after paying: copy buttons and one-tap imports into the
 * apps after a purchase and in the dashboard's QR dialog, the same deep links as the
 * subscription page; the subscriptions before the promotions; the market's connect cooldown
 * explained and still right after a reload; APKs beside the store links; the consequences of
 * deleting and of switching billing; the dashboard in Persian.
 */

const suite = browserSuite({ solana: true, apkMirror: true });
const { openPage } = suite;

const SERVERS = ['Lisbon One', 'Lisbon Two'] as const;

beforeAll(async () => {
  const operator = await insertOperator(suite.stack);
  for (const [index, name] of SERVERS.entries()) {
    await insertListedServer(suite.stack, {
      ownerUuid: operator,
      name,
      host: `203.0.113.4${index}`,
      port: 31_000 + index,
      location: 'Lisbon',
    });
  }
});

/** The deep links every app must get for `url` (the subscription page's own schemes). */
function expectedImports(url: string): Record<string, string> {
  const encoded = encodeURIComponent(url);
  return {
    v2rayNG: `v2rayng://install-config?url=${encoded}#`,
    // Hiddify shows a fragment undecoded: a name it would garble is left to profile-title.
    Hiddify: `hiddify://import/${url}`,
    'sing-box': `sing-box://import-remote-profile?url=${encoded}#`,
    Clash: `clash://install-config?url=${encoded}&name=`,
    Streisand: `streisand://import/${url}#`,
  };
}

/** Checks the open-in-app buttons of `scope` against `url`, and answers their hrefs. */
async function checkOpenInApp(scope: Locator, url: string): Promise<string[]> {
  const hrefs: string[] = [];
  for (const [app, prefix] of Object.entries(expectedImports(url))) {
    const link = scope.getByTestId(`open-in-${app}`);
    expect(await link.innerText()).toContain(app);
    const href = (await link.getAttribute('href')) ?? '';
    expect(href.startsWith(prefix)).toBe(true);
    hrefs.push(href);
  }
  const page = scope.getByTestId('subscription-page-link');
  expect(await page.getAttribute('href')).toBe(url);
  expect(await page.getAttribute('target')).toBe('_blank');
  return hrefs;
}

async function clipboard(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

async function buyBoth(page: Page): Promise<Locator> {
  for (const name of SERVERS) await marketCard(page, name).getByTestId('market-connect').click();
  await page.getByTestId('selection-count').filter({ hasText: '2 servers selected' }).waitFor();
  await page
    .getByRole('region', { name: 'Selected servers' })
    .getByRole('button', { name: 'Create Subscription' })
    .click();
  const create = page.getByRole('dialog', { name: 'Create Network Subscription' });
  await create.getByRole('button', { name: 'Create Subscription' }).click();
  const payment = page.getByRole('dialog', { name: 'Payment Confirmation' });
  await payment.getByRole('button', { name: 'Confirm Payment' }).click();
  await create.getByTestId('purchase-result').waitFor();
  return create;
}

async function funded(ssl: number): Promise<Account> {
  const client = await registerAccount(suite.stack, 'client');
  await depositThroughChain(suite.stack, client, ssl);
  return client;
}

async function buyThroughApi(account: Account, names: readonly string[]): Promise<string> {
  const ids = (
    await suite.stack.db.query<{ id: string }>(
      `SELECT id FROM servers WHERE name = ANY($1) ORDER BY name`,
      [names],
    )
  ).map((row) => row.id);
  const response = await fetch(`${suite.stack.baseUrl}${SUBSCRIPTION_ROUTES.create}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.token}` },
    body: JSON.stringify({ uuid: account.uuid, serverIds: ids }),
  });
  const body = (await response.json()) as { subscriptionId: string };
  expect(response.status).toBeLessThan(300);
  return body.subscriptionId;
}

describe('connecting after a purchase', () => {
  it('copies each link and the subscription URL and opens the apps, after paying and in the QR dialog', async () => {
    const client = await funded(25);
    const page = await openPage({ account: client, viewport: MOBILE });
    await page.goto('/servers');
    const result = await buyBoth(page);

    // Every server's link has its own copy button.
    const copies = result.getByTestId('copy-server-link');
    expect(await copies.count()).toBe(2);
    const copied: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      await copies.nth(i).click();
      expect(await waitForText(copies.nth(i), 'Copied!')).toBe('Copied!');
      copied.push(await clipboard(page));
    }
    for (const link of copied) {
      expect(link).toMatch(/^vless:\/\/[0-9a-f-]{36}@203\.0\.113\.4[01]:3100[01]\?/);
    }
    expect(copied[0]).not.toBe(copied[1]);

    // The subscription URL: copied whole, and the apps' one-tap imports use it.
    const url = await result.getByTestId('purchase-subscription-url').innerText();
    expect(url).toMatch(/^https?:\/\/[^/]+\/sub\//);
    await result.getByTestId('copy-subscription-url').click();
    expect(await clipboard(page)).toBe(url);
    const afterPurchase = await checkOpenInApp(result, url);

    // The subscription page opens the apps with the same schemes (one table in @scn/proto).
    const html = await (await fetch(url, { headers: { Accept: 'text/html' } })).text();
    for (const prefix of Object.values(expectedImports(url))) {
      expect(html).toContain(`href="${prefix.replace(/&/g, '&amp;')}`);
    }

    // View Subscription opens the dashboard's QR dialog with the same buttons.
    await result.getByRole('button', { name: 'View Subscription' }).click();
    const qr = page.getByRole('dialog', { name: 'Subscription QR Code' });
    await qr.getByTestId('qr-ready').waitFor();
    expect(await qr.getByTestId('subscription-url').innerText()).toBe(url);
    expect(await checkOpenInApp(qr, url)).toEqual(afterPurchase);
    await qr.getByTestId('copy-subscription-url').click();
    expect(await clipboard(page)).toBe(url);
    const connection = await qr.getByTestId('qr-connection').inputValue();
    await qr.getByTestId('copy-connection').click();
    expect(await clipboard(page)).toBe(connection);
  });

  it('shows the subscriptions before the share-and-earn panel', async () => {
    const client = await funded(10);
    await buyThroughApi(client, [SERVERS[0]]);
    const page = await openPage({ account: client, viewport: MOBILE });
    await page.goto('/client-dashboard');
    await page.getByTestId('subscription-card').waitFor();
    await page.getByTestId('earn-ssl').waitFor();
    const order = await page.evaluate(() => {
      const top = (id: string) =>
        document.querySelector(`[data-testid="${id}"]`)!.getBoundingClientRect().top;
      return {
        subscriptions: top('active-subscriptions'),
        wallet: top('client-wallet'),
        earn: top('earn-ssl'),
      };
    });
    expect(order.subscriptions).toBeLessThan(order.wallet);
    expect(order.subscriptions).toBeLessThan(order.earn);
  });
});

describe('the connect cooldown', () => {
  function cooldownSeconds(text: string): number {
    const match = /in (\d+)s/.exec(text);
    if (!match) throw new Error(`no seconds in "${text}"`);
    return Number(match[1]);
  }

  it('is explained on the card, and after a reload goes on from the server without resetting', async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client });
    await page.goto('/servers');
    const card = marketCard(page, SERVERS[1]);
    await card.getByTestId('market-connect').click();
    const button = card.getByTestId('market-connect');
    const before = cooldownSeconds(await waitForText(button, 'Available for subscription in'));
    expect(before).toBeGreaterThan(50);
    expect(before).toBeLessThanOrEqual(60);
    const hint = card.getByTestId('market-cooldown-hint');
    expect(await hint.innerText()).toContain('Added to your selection');
    expect(await hint.innerText()).toContain('once a minute');
    expect(await button.getAttribute('aria-describedby')).toBe(await hint.getAttribute('id'));

    await page.waitForTimeout(2_500);
    await page.reload();
    const after = cooldownSeconds(await waitForText(button, 'Available for subscription in'));
    expect(Number.isNaN(after)).toBe(false);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(before);
    expect(await button.isDisabled()).toBe(true);
    expect(await card.getByTestId('market-cooldown-hint').innerText()).toContain(
      'pick it again when the count reaches zero',
    );
    // It keeps counting down from the server's remaining time.
    await page.waitForTimeout(2_200);
    const later = cooldownSeconds(await button.innerText());
    expect(later).toBeLessThan(after);
    expect(later).toBeGreaterThan(0);
  });
});

describe('client apps', () => {
  /** /checksums/client once the stack's mirror has a copy of every APK (it fetches at start). */
  async function mirrored(): Promise<ClientChecksumsResponse> {
    for (let attempt = 0; ; attempt += 1) {
      const body = (await (
        await fetch(`${suite.stack.baseUrl}/checksums/client`)
      ).json()) as ClientChecksumsResponse;
      if (ANDROID_APKS.every((apk) => body.data[apk].mirror)) return body;
      if (attempt > 100) throw new Error('the APKs were not mirrored within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('offers the mirrored APKs with the SHA-256 of the bytes served, GitHub as the alternative, and iOS apps besides Streisand', async () => {
    const expected = await mirrored();
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client });
    await page.goto('/client-dashboard');
    await page.getByRole('button', { name: 'Download Client App' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download Client App' });

    for (const apk of ANDROID_APKS) {
      const entry = expected.data[apk];
      const mirror = entry.mirror!;
      // The copy is exactly what the stand-in for GitHub served, and its hash is that file's.
      const upstreamBytes = suite.stack.apks![entry.fileName]!;
      const served = Buffer.from(
        await (await fetch(`${suite.stack.baseUrl}${mirror.url}`)).arrayBuffer(),
      );
      expect(served.equals(upstreamBytes)).toBe(true);
      expect(entry.checksum).toBe(createHash('sha256').update(served).digest('hex'));

      const row = dialog.getByTestId(`apk-${apk}`);
      const download = row.getByTestId(`download-${apk}`);
      await download.waitFor();
      expect(await download.getAttribute('href')).toBe(mirror.url);
      expect(await download.getAttribute('download')).toBe(entry.fileName);
      const checksum = row.getByTestId('checksum');
      expect(await checksum.innerText()).toBe(entry.checksum);
      expect(await checksum.getAttribute('dir')).toBe('ltr');
      expect(await row.getByTestId('apk-mirrored').innerText()).toContain('served by SCN');
      expect(await row.innerText()).toContain(entry.packageName);
      expect(await row.getByTestId(`upstream-${apk}`).getAttribute('href')).toBe(entry.url);
      expect(entry.url).toMatch(
        /^https:\/\/github\.com\/(2dust\/v2rayNG|hiddify\/hiddify-app)\/releases\/download\//,
      );
      expect(await row.getByTestId(`release-${apk}`).getAttribute('href')).toBe(entry.source);
    }
    // The store links stay, and iOS has apps for where Streisand is missing.
    expect(
      await dialog.getByTestId('platform-android').getByRole('link').getAttribute('href'),
    ).toContain('play.google.com');
    for (const app of ['hiddify', 'foxray', 'shadowrocket']) {
      expect(await dialog.getByTestId(`ios-${app}`).getByRole('link').getAttribute('href')).toMatch(
        /^https:\/\/apps\.apple\.com\//,
      );
    }
    expect(await dialog.getByTestId('ios-shadowrocket').innerText()).toContain('Paid');
  });

  it('shows the mirrored APK in Persian, its hash left to right, nothing wider than the phone', async () => {
    const expected = await mirrored();
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client, locale: 'fa-IR', viewport: MOBILE });
    await page.goto('/client-dashboard');
    await page.getByRole('button', { name: 'دانلود برنامه' }).click();
    const dialog = page.getByRole('dialog', { name: 'دانلود برنامه' });
    const apk = 'android-hiddify';
    const row = dialog.getByTestId(`apk-${apk}`);
    await row.getByTestId(`download-${apk}`).waitFor();
    const note = await row.getByTestId('apk-mirrored').innerText();
    expect(note).toContain('نسخه‌ای از انتشار رسمی');
    expect(note).toMatch(/[۰-۹]/); // the size in Persian digits
    expect(await row.getByTestId('checksum').innerText()).toBe(expected.data[apk].checksum);
    expect(await row.getByTestId('checksum').getAttribute('dir')).toBe('ltr');
    expect(await row.locator('bdi [data-testid="checksum"]').count()).toBe(1);
    expect(await row.getByTestId(`upstream-${apk}`).innerText()).toBe('یا از گیت‌هاب');
    const width = await page.evaluate(() => document.documentElement.clientWidth);
    const [left, right] = await row.evaluate((element) => {
      const boxes = [...element.querySelectorAll('*')].map((e) => e.getBoundingClientRect());
      return [Math.min(...boxes.map((b) => b.left)), Math.max(...boxes.map((b) => b.right))];
    });
    expect(left).toBeGreaterThanOrEqual(-1);
    expect(right).toBeLessThanOrEqual(width + 1);
  });

  it('links the GitHub release, and where its hash is listed, while an APK is not mirrored', async () => {
    const expected = await mirrored();
    const client = await registerAccount(suite.stack, 'client');
    const page = await openPage({ account: client });
    // As a control plane without the mirror (or before its first copy) answers.
    const unmirrored = structuredClone(expected);
    for (const apk of ANDROID_APKS) {
      unmirrored.data[apk] = { ...unmirrored.data[apk], checksum: null, mirror: null };
    }
    await page.route('**/checksums/client', (route) => route.fulfill({ json: unmirrored }));
    await page.goto('/client-dashboard');
    await page.getByRole('button', { name: 'Download Client App' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download Client App' });
    for (const apk of ANDROID_APKS) {
      const entry = unmirrored.data[apk];
      const row = dialog.getByTestId(`apk-${apk}`);
      const download = row.getByTestId(`download-${apk}`);
      await download.waitFor();
      expect(await download.getAttribute('href')).toBe(entry.url);
      // No hash copied or computed: point to where the publisher lists it, never a made-up one.
      expect(await row.getByTestId('checksum-source').getAttribute('href')).toBe(entry.source);
      expect(await row.getByTestId('checksum').count()).toBe(0);
      expect(await row.getByTestId('apk-mirrored').count()).toBe(0);
    }
  });
});

describe('consequences before acting', () => {
  it('delete states what is lost, and Cancel keeps the subscription', async () => {
    const client = await funded(10);
    const id = await buyThroughApi(client, [SERVERS[0]]);
    const page = await openPage({ account: client });
    await page.goto('/client-dashboard');
    const card = page.locator(`[data-subscription-id="${id}"]`);
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Deletion' });
    const losses = confirm.getByTestId('delete-consequences').locator('li');
    expect(await losses.count()).toBe(3);
    const text = await confirm.innerText();
    expect(text).toContain('stop working at once');
    expect(text).toContain('not refunded');
    expect(text).toContain('cannot be undone');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    await card.waitFor();
    const listed = await fetch(`${suite.stack.baseUrl}${SUBSCRIPTION_ROUTES.active(client.uuid)}`, {
      headers: { Authorization: `Bearer ${client.token}` },
    });
    expect(JSON.stringify(await listed.json())).toContain(id);
  });

  it('the billing switch marks its cost and the lost time as losses, with no ticks', async () => {
    const client = await funded(10);
    const id = await buyThroughApi(client, [SERVERS[0]]);
    const page = await openPage({ account: client });
    await page.goto('/client-dashboard');
    await page
      .locator(`[data-subscription-id="${id}"]`)
      .getByRole('button', { name: 'Switch to hourly' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Change Billing Type' });
    const list = dialog.getByTestId('change-type-consequences');
    expect(await dialog.locator('.check-list').count()).toBe(0);
    const losses = list.locator('[data-kind="loss"]');
    expect(await losses.count()).toBe(2);
    expect(await losses.nth(0).innerText()).toContain('10.00 SSL per server');
    expect(await losses.nth(1).innerText()).toContain('not refunded');
    const colour = await losses.nth(1).evaluate((li) => getComputedStyle(li).color);
    const tick = await losses.nth(1).evaluate((li) => getComputedStyle(li, '::before').content);
    expect(colour).toBe('rgb(239, 68, 68)');
    expect(tick).not.toBe('""');
    expect(tick).not.toContain('✓');
  });
});

describe('the client dashboard in Persian', () => {
  it('is right to left with its own words, digits and the QR dialog in Persian', async () => {
    const client = await funded(10);
    await buyThroughApi(client, [SERVERS[0]]);
    const page = await openPage({ account: client, locale: 'fa-IR', viewport: MOBILE });
    await page.goto('/client-dashboard');
    await page.getByRole('heading', { level: 1, name: 'داشبورد کاربر' }).waitFor();
    expect(
      await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
    ).toEqual(['fa', 'rtl']);
    await page.getByRole('heading', { name: 'اشتراک‌های فعال' }).waitFor();
    const card = page.getByTestId('subscription-card');
    expect(await card.getByTestId('subscription-cycle').innerText()).toBe('ماهانه');
    expect(await card.getByTestId('subscription-billing').innerText()).toBe('۱۰٫۰۰ SSL / ۳۰ روز');
    expect(await card.getByTestId('subscription-pauses').innerText()).toMatch(/^[۰-۹]+ از [۰-۹]+$/);

    await card.getByRole('button', { name: 'نمایش QR' }).click();
    const qr = page.getByRole('dialog', { name: 'کد QR اشتراک' });
    await qr.getByTestId('qr-ready').waitFor();
    expect(await qr.getByTestId('open-in-v2rayNG').innerText()).toBe('باز کردن در v2rayNG');
    expect(await qr.getByTestId('subscription-page-link').innerText()).toBe('باز کردن صفحه اشتراک');
    expect(await qr.getByTestId('subscription-url').getAttribute('dir')).toBe('ltr');
    await qr.getByTestId('copy-subscription-url').click();
    expect(await waitForText(qr.getByTestId('copy-subscription-url'), 'کپی شد!')).toBe('کپی شد!');
  });
});
