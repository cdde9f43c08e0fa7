import { type CheckSharesResponse, SOCIAL_MESSAGES, SOCIAL_ROUTES } from '@scn/proto';
import type { Page } from 'playwright-core';
import { ledgerViolations } from '../../../control-plane/test/support/ledger';
import { type Account, collectProblems, registerAccount, waitForText } from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Share-and-earn in the browser, against the built control plane with its test
 * clock: a client in Asia/Kolkata shares to X at 12:05 local time on a weekday (prime time,
 * computed by the server from its own clock in the browser's zone) and sees the pending 1 SSL;
 * a second share to X is refused; a day later the job pays it into the wallet. A browser in a
 * blocked zone gets the 'Feature Unavailable' modal. Nothing leaves loopback: window.open is
 * recorded, not followed, and every request off 127.0.0.1 is aborted.
 */
const suite = browserSuite({ testClock: true });
const { openPage } = suite;

/** Wednesday 2 December 2026, 12:05 in Kolkata (06:35 UTC). */
const PRIME_IN_KOLKATA = new Date('2026-12-02T06:35:00Z');

async function openDashboard(account: Account, timeZone: string): Promise<Page> {
  const page = await openPage({ account });
  await page.context().route(
    (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
    (route) => route.abort(),
  );
  await page.addInitScript(() => {
    const opened: string[] = [];
    (window as unknown as { __opened: string[] }).__opened = opened;
    window.open = (url?: string | URL) => {
      opened.push(String(url));
      return null;
    };
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setTimezoneOverride', { timezoneId: timeZone });
  await page.goto('/client-dashboard');
  await page.getByRole('heading', { level: 1, name: 'Client Dashboard' }).waitFor();
  return page;
}

/** Polls check-shares (as the client) until nothing is pending: the job has paid. */
async function waitForPaid(account: Account): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${suite.stack.baseUrl}${SOCIAL_ROUTES.checkShares(account.uuid)}`, {
      headers: { Authorization: `Bearer ${account.token}` },
    });
    const body = (await res.json()) as CheckSharesResponse;
    if (body.pendingRewardMicro === '0') return;
    if (Date.now() > deadline) throw new Error('the share reward was not paid');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('share and earn', () => {
  it('a client shares and sees the pending reward', async () => {
    suite.stack.clock!.set(PRIME_IN_KOLKATA);
    const client = await registerAccount(suite.stack, 'client');
    const page = await openDashboard(client, 'Asia/Kolkata');
    const problems = collectProblems(page);
    const card = page.getByTestId('earn-ssl');
    expect(await waitForText(card.getByTestId('earn-ssl-pending'), '0.00 SSL')).toBe('0.00 SSL');

    await card.getByTestId('earn-ssl-open').click();
    const dialog = page.getByTestId('share-dialog');
    const step = dialog.getByTestId('share-step');
    expect(await step.getAttribute('data-step')).toBe('initial');
    // Before any share: the risk of posting publicly, and the payout rules as the server pays.
    expect(await dialog.getByTestId('share-risk-warning').innerText()).toContain(
      'Where circumvention tools are illegal, a public post about one can put you at risk',
    );
    expect(await dialog.getByTestId('share-rules-prime').innerText()).toBe(
      'Prime time, in your local time (India Standard Time): Monday to Friday 12:00–13:30 and 20:00–21:30; Saturday and Sunday 10:00–16:00 and 19:00–22:00 (each window ends just before its last minute).',
    );
    expect(await dialog.getByTestId('share-rules-cap').innerText()).toBe(
      'At most 1 SSL from shares in any 24 hours: a share that would pass it is paid what is left (a prime-time share after a 0.1 SSL share pays 0.9 SSL), and with nothing left it is refused.',
    );
    await dialog.getByTestId('share-choose-twitter').click();
    expect(await step.getAttribute('data-step')).toBe('sharing');
    await dialog.getByTestId('share-image').waitFor();
    // One of the 5 promotional images, served by the portal.
    const image = await dialog.getByTestId('share-image').getAttribute('src');
    const served = await page.request.get(image!);
    expect([served.status(), served.headers()['content-type']]).toEqual([
      200,
      expect.stringContaining('image/svg+xml'),
    ]);

    await dialog.getByTestId('share-open').click();
    expect(await step.getAttribute('data-step')).toBe('twitter_sharing');
    const opened = await page.evaluate(
      () => (window as unknown as { __opened: string[] }).__opened,
    );
    expect(opened).toEqual([expect.stringMatching(/^https:\/\/x\.com\/intent\/post\?text=/)]);
    await dialog.getByTestId('share-posted').click();
    expect(await step.getAttribute('data-step')).toBe('url_verification');

    // The page's own check first (docs/product/input-rules.md#market-and-account-input), then the server's.
    await dialog.getByTestId('share-url').fill('x.com/me/status/1');
    await dialog.getByTestId('share-verify').click();
    expect(await dialog.getByTestId('share-url-error').innerText()).toBe(
      SOCIAL_MESSAGES.urlNotHttp,
    );
    await dialog.getByTestId('share-url').fill('https://www.instagram.com/p/NotATweet1/');
    await dialog.getByTestId('share-verify').click();
    expect(await waitForText(dialog.getByTestId('share-error-message'), 'x.com')).toBe(
      SOCIAL_MESSAGES.urlNotPlatform('twitter'),
    );
    expect(await dialog.getByTestId('share-error-code').innerText()).toMatch(/^\d{6}$/);
    await dialog.getByTestId('share-retry').click();
    expect(await step.getAttribute('data-step')).toBe('url_verification');

    await dialog.getByTestId('share-url').fill('https://x.com/me/status/1790000000000000001');
    await dialog.getByTestId('share-verify').click();
    expect(await waitForText(dialog.getByTestId('share-pending-amount'), '1.00 SSL')).toBe(
      '1.00 SSL',
    );
    expect(await step.getAttribute('data-step')).toBe('pending_verification');
    expect(await dialog.getByTestId('share-pending').innerText()).toContain('Prime time share!');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();

    expect(await waitForText(card.getByTestId('earn-ssl-pending'), '1.00 SSL')).toBe('1.00 SSL');
    expect(await card.getByTestId('earn-ssl-shares').innerText()).toContain(
      'X (Twitter): 1.00 SSL (prime time)',
    );

    // X is used for 7 days: the modal offers only Instagram now.
    await card.getByTestId('earn-ssl-open').click();
    expect(await dialog.getByTestId('share-choose-twitter').isDisabled()).toBe(true);
    expect(await dialog.getByTestId('share-choose-instagram').isEnabled()).toBe(true);
    expect(await dialog.getByTestId('share-choose-telegram').isEnabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Close dialog' }).click();

    // A day later the job pays it: the wallet shows the social reward.
    suite.stack.clock!.set(new Date(PRIME_IN_KOLKATA.getTime() + 24 * 3_600_000 + 60_000));
    const wallet = page.getByTestId('client-wallet');
    await waitForPaid(client);
    await page.reload();
    expect(await waitForText(wallet.getByTestId('wallet-balance'), '1.00')).toBe('1.00');
    await wallet.getByRole('tab', { name: 'Transactions' }).click();
    const rows = wallet.getByTestId('transaction');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.nth(0).getByTestId('transaction-type').innerText()).toBe('Social Reward');
    expect(problems.pageErrors).toEqual([]);
    expect(await ledgerViolations(suite.stack.db.url)).toEqual([]);
  });

  it('an operator opens the same share modal on the node dashboard', async () => {
    const operator = await registerAccount(suite.stack, 'node');
    const page = await openPage({ account: operator });
    await page.context().route(
      (url) => url.hostname !== '127.0.0.1' && url.hostname !== 'localhost',
      (route) => route.abort(),
    );
    await page.goto('/node-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Node Dashboard' }).waitFor();
    const card = page.getByTestId('earn-ssl');
    expect(await waitForText(card.getByTestId('earn-ssl-pending'), '0.00 SSL')).toBe('0.00 SSL');
    await card.getByTestId('earn-ssl-open').click();
    const dialog = page.getByTestId('share-dialog');
    expect(await dialog.getByTestId('share-step').getAttribute('data-step')).toBe('initial');
    await dialog.getByTestId('share-choose-instagram').click();
    expect(await dialog.getByTestId('share-step').getAttribute('data-step')).toBe('sharing');
    expect(await dialog.getByTestId('share-open').innerText()).toBe('Download image for Instagram');
    await dialog.getByTestId('share-different').click();
    expect(await dialog.getByTestId('share-step').getAttribute('data-step')).toBe('initial');
  });

  it("shares to Telegram through Telegram's share link and claims a channel's post", async () => {
    // The clock is a day after the first test's share: Thursday 12:06 in Kolkata, prime time.
    const client = await registerAccount(suite.stack, 'client');
    const page = await openDashboard(client, 'Asia/Kolkata');
    const problems = collectProblems(page);
    const card = page.getByTestId('earn-ssl');
    await card.getByTestId('earn-ssl-pending').waitFor();
    await card.getByTestId('earn-ssl-open').click();
    const dialog = page.getByTestId('share-dialog');
    const step = dialog.getByTestId('share-step');
    await dialog.getByTestId('share-risk-warning').waitFor();
    expect(await dialog.getByTestId('share-choose-telegram').innerText()).toBe('Telegram');
    await dialog.getByTestId('share-choose-telegram').click();
    expect(await step.getAttribute('data-step')).toBe('sharing');
    // The warning stays beside the share button.
    await dialog.getByTestId('share-risk-warning').waitFor();
    const open = dialog.getByTestId('share-open');
    expect(await open.innerText()).toBe('Share on Telegram');
    const href = new URL((await open.getAttribute('href'))!);
    const text = await dialog.getByTestId('share-text').innerText();
    expect([href.origin, href.pathname]).toEqual(['https://t.me', '/share/url']);
    expect(href.searchParams.get('url')).toMatch(/^https?:\/\/[^/]+/);
    expect(href.searchParams.get('text')).toBe(text);
    expect(await open.getAttribute('target')).toBe('_blank');
    // The link opens a tab of its own (aborted here: nothing leaves loopback).
    const popup = page.context().waitForEvent('page');
    await open.click();
    await (await popup).close();
    expect(await step.getAttribute('data-step')).toBe('telegram_sharing');
    await dialog.getByTestId('share-posted').click();
    await dialog.getByTestId('share-url').fill('https://t.me/ScnNetwork/1201');
    await dialog.getByTestId('share-verify').click();
    expect(await waitForText(dialog.getByTestId('share-pending-amount'), '1.00 SSL')).toBe(
      '1.00 SSL',
    );
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    expect(await card.getByTestId('earn-ssl-shares').innerText()).toContain(
      'Telegram: 1.00 SSL (prime time)',
    );
    expect(problems.pageErrors).toEqual([]);
  });

  it("shows 'Feature Unavailable' in a blocked region", async () => {
    const client = await registerAccount(suite.stack, 'client');
    const page = await openDashboard(client, 'Asia/Tehran');
    await page.getByTestId('earn-ssl').getByTestId('earn-ssl-open').click();
    const blocked = page.getByTestId('share-region-blocked');
    expect(await waitForText(blocked, SOCIAL_MESSAGES.regionBlocked)).toContain(
      SOCIAL_MESSAGES.regionBlocked,
    );
    expect(await page.getByTestId('share-dialog').count()).toBe(0);
  });
});
