import { CONTACT_MESSAGES, AUTH_MESSAGES } from '@scn/proto';
import type { Page } from 'playwright-core';
import {
  collectProblems,
  nextFrames,
  readStorage,
  uniqueEmail,
  waitForText,
} from './support/portal';
import { browserSuite } from './support/suite';

/**
 * Public pages (docs/product/screens.md#the-shell-and-the-market-screens Shell, cookie banner, landing; docs/product/screens.md#dashboards-and-information-pages info pages, not-found,
 * economics tabs, contact modal).
 */

const suite = browserSuite();
const { openPage } = suite;

/** Every public route and its h1 (docs/product/screens.md#the-shell-and-the-market-screens, docs/product/screens.md#dashboards-and-information-pages). */
const PUBLIC_ROUTES: ReadonlyArray<[string, string]> = [
  ['/', 'Stay Connected. Stay Invisible.'],
  ['/servers', 'Network Servers'],
  ['/security', 'Security & Protection'],
  ['/our-view', 'Our View'],
  ['/economics', 'Service Economics'],
  ['/documentation', 'Documentation'],
  ['/faqs', 'Frequently Asked Questions'],
  ['/support', 'Support Center'],
  ['/privacy-policy', 'Protection Policy'],
  ['/terms', 'Terms of Service'],
];

describe('public routes', () => {
  it.each(PUBLIC_ROUTES)(
    '%s renders its h1 without console errors or failed requests',
    async (path, heading) => {
      const page = await openPage();
      const problems = collectProblems(page);
      await page.goto(path, { waitUntil: 'networkidle' });
      const h1 = page.getByRole('heading', { level: 1 });
      await h1.waitFor();
      expect(await h1.count()).toBe(1);
      // innerText keeps the line break of the hero's two sentences: compare on words.
      expect((await h1.innerText()).replace(/\s+/g, ' ').trim()).toBe(heading);
      await page.getByTestId('top-bar').waitFor();
      await page.getByTestId('footer').waitFor();
      expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
    },
  );

  it('an unknown route shows the not-found page with a link back home', async () => {
    const page = await openPage();
    const problems = collectProblems(page);
    const response = await page.goto('/no/such/page');
    // The control plane serves the app shell with a 404: no such page (a crawler or a monitor
    // learns it), and the app shows its not-found page.
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    const home = page.getByRole('main').getByRole('link', { name: 'Back to Home' });
    expect(await home.getAttribute('href')).toBe('/');
    await home.click();
    await page.waitForURL(`${suite.stack.baseUrl}/`);
    await page
      .getByRole('heading', { level: 1, name: 'Stay Connected. Stay Invisible.' })
      .waitFor();
    // The document's own 404 is the answer asked for; nothing else failed.
    expect(problems).toEqual({
      consoleErrors: [expect.stringContaining('404')],
      pageErrors: [],
      failedRequests: [`GET ${suite.stack.baseUrl}/no/such/page: HTTP 404`],
    });
  });

  it('the built scripts name no source map, and no map is served', async () => {
    const index = await fetch(`${suite.stack.baseUrl}/`);
    const scripts = [...(await index.text()).matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map(
      (match) => match[1]!,
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const js = await fetch(`${suite.stack.baseUrl}${script}`);
      expect(js.status).toBe(200);
      expect(await js.text()).not.toMatch(/sourceMappingURL/);
      const map = await fetch(`${suite.stack.baseUrl}${script}.map`);
      expect([script, map.status]).toEqual([script, 404]);
    }
  });

  it('the build is sent brotli-compressed, its hashed assets cached for good', async () => {
    const index = await fetch(`${suite.stack.baseUrl}/servers`, {
      headers: { Accept: 'text/html', 'Accept-Encoding': 'gzip, deflate, br' },
    });
    expect(index.headers.get('content-encoding')).toBe('br');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const assets = [
      ...(await index.text()).matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g),
    ].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThan(1);
    for (const asset of assets) {
      const res = await fetch(`${suite.stack.baseUrl}${asset}`, {
        headers: { 'Accept-Encoding': 'gzip, deflate, br' },
      });
      expect([asset, res.status, res.headers.get('content-encoding')]).toEqual([asset, 200, 'br']);
      expect(res.headers.get('vary')).toMatch(/Accept-Encoding/i);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it('paints the placeholder before any script has run, wordless but the brand', async () => {
    const page = await openPage();
    // The scripts never arrive: what shows is index.html alone.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/servers');
    await page.locator('.boot__bar').waitFor();
    expect((await page.locator('#root').innerText()).trim()).toBe('SCN');
    expect(await page.locator('.boot__card').count()).toBeGreaterThan(0);
    const painted = await page.evaluate(
      () => performance.getEntriesByName('first-contentful-paint').length,
    );
    expect(painted).toBe(1);
  });

  it('the app replaces the placeholder on mount', async () => {
    const page = await openPage();
    await page.goto('/servers');
    await page.getByRole('heading', { level: 1, name: 'Network Servers' }).waitFor();
    expect(await page.locator('.boot__bar').count()).toBe(0);
    expect(await page.locator('.boot__page').count()).toBe(0);
  });
});

describe('economics tabs', () => {
  it('the hash selects the tab on load; a tab change replaces the history entry', async () => {
    const page = await openPage();
    await page.goto('/economics#node-operators');
    await page.reload();
    const tablist = page.getByRole('tablist', { name: 'Service economics' });
    const clients = tablist.getByRole('tab', { name: 'For Clients' });
    const operators = tablist.getByRole('tab', { name: 'For Node Operators' });
    await operators.waitFor();
    expect(await operators.getAttribute('aria-selected')).toBe('true');
    expect(await clients.getAttribute('aria-selected')).toBe('false');
    expect(await page.getByRole('tabpanel').count()).toBe(1);
    expect(await page.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(
      await operators.getAttribute('id'),
    );

    const historyLength = await page.evaluate(() => window.history.length);
    await clients.click();
    await page.waitForFunction(() => window.location.hash === '#clients');
    expect(await clients.getAttribute('aria-selected')).toBe('true');
    expect(await operators.getAttribute('aria-selected')).toBe('false');
    expect(await page.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(
      await clients.getAttribute('id'),
    );
    expect(await page.evaluate(() => window.history.length)).toBe(historyLength);
    expect(new URL(page.url()).pathname).toBe('/economics');
  });
});

describe('live economy', () => {
  it('the operators’ tab shows the pool, the budget and the network as the server computes them', async () => {
    const page = await openPage();
    const problems = collectProblems(page);
    await page.goto('/economics#node-operators');
    const live = page.getByTestId('live-economy');
    await live.getByText('Reward pool').waitFor();
    const figures = (await (await page.request.get('/api/economics/live')).json()) as {
      poolMicro: string;
      monthBudgetMicro: string;
      month: string;
    };
    const ssl = (micro: string) =>
      `${Number(BigInt(micro) / 1_000_000n).toLocaleString('en-US')} SSL`;
    const text = await live.innerText();
    expect(text).toContain(ssl(figures.poolMicro));
    expect(text).toContain('of 1,500,000,000 SSL at genesis');
    // The month by name ("2026-11" is "November 2026").
    const month = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${figures.month}-01T00:00:00Z`));
    expect(text).toContain(`Budget for ${month}`);
    expect(text).toContain(ssl(figures.monthBudgetMicro));
    expect(text).toMatch(/Network reliability\s+(No reports yet|\d+\.\d%)/);
    expect(problems).toEqual({ consoleErrors: [], pageErrors: [], failedRequests: [] });
  });
});

describe('cookie consent banner', () => {
  interface Consent {
    essential: boolean;
    analytics: boolean;
    marketing: boolean;
    timestamp: string;
  }

  async function storedConsent(page: Page): Promise<Consent | null> {
    const raw = (await readStorage(page)).cookieConsent;
    return raw === null ? null : (JSON.parse(raw) as Consent);
  }

  it('shows on a first visit; Essential Only is stored and the banner stays gone', async () => {
    const page = await openPage({ cookies: false });
    await page.goto('/');
    const banner = page.getByTestId('cookie-banner');
    await banner.waitFor();
    expect(await banner.getByRole('heading', { name: 'Cookie Policy' }).isVisible()).toBe(true);
    expect(await storedConsent(page)).toBeNull();

    const before = Date.now();
    await banner.getByRole('button', { name: 'Essential Only' }).click();
    await banner.waitFor({ state: 'detached' });
    const consent = await storedConsent(page);
    expect(consent).toEqual({
      essential: true,
      analytics: false,
      marketing: false,
      timestamp: expect.any(String),
    });
    expect(Date.parse(consent!.timestamp)).toBeGreaterThanOrEqual(before - 1000);

    await page.reload();
    await page
      .getByRole('heading', { level: 1, name: 'Stay Connected. Stay Invisible.' })
      .waitFor();
    await nextFrames(page);
    expect(await banner.count()).toBe(0);
  });

  it('Accept All stores analytics and marketing consent', async () => {
    const page = await openPage({ cookies: false });
    await page.goto('/security');
    const banner = page.getByTestId('cookie-banner');
    await banner.getByRole('button', { name: 'Accept All' }).click();
    await banner.waitFor({ state: 'detached' });
    expect(await storedConsent(page)).toMatchObject({
      essential: true,
      analytics: true,
      marketing: true,
    });
  });
});

describe('shell', () => {
  it('the top bar gains its shadow after scrolling more than 10 px', async () => {
    const page = await openPage();
    await page.goto('/documentation');
    const bar = page.getByTestId('top-bar');
    await page.getByRole('heading', { level: 1, name: 'Documentation' }).waitFor();
    const shadow = () => bar.evaluate((element) => getComputedStyle(element).boxShadow);
    const flat = await shadow();
    expect(await bar.getAttribute('class')).not.toContain('topbar--scrolled');

    // Exactly 10 px is not "more than 10".
    await page.evaluate(() => window.scrollTo({ top: 10, behavior: 'instant' }));
    await page.waitForFunction(() => window.scrollY === 10);
    await nextFrames(page);
    expect(await bar.getAttribute('class')).not.toContain('topbar--scrolled');

    await page.evaluate(() => window.scrollTo({ top: 11, behavior: 'instant' }));
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="top-bar"]')?.classList.contains('topbar--scrolled'),
    );
    await nextFrames(page);
    const raised = await shadow();
    expect(raised).not.toBe(flat);
    expect(raised).not.toBe('none');

    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.waitForFunction(
      () =>
        !document.querySelector('[data-testid="top-bar"]')?.classList.contains('topbar--scrolled'),
    );
  });

  it('while a dialog is open everything behind it is inert', async () => {
    const page = await openPage();
    await page.goto('/');
    await page.getByTestId('top-bar').getByRole('button', { name: 'Log In', exact: true }).click();
    await page.getByRole('dialog', { name: 'Select Your Account Type' }).waitFor();
    expect(await page.locator('#root').evaluate((root) => (root as HTMLElement).inert)).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await page.locator('#root').evaluate((root) => (root as HTMLElement).inert)).toBe(false);
  });
});

describe('contact support modal', () => {
  it('validates, sends the message to the support mailbox and stores it', async () => {
    const page = await openPage();
    await page.goto('/support');
    await page.getByTestId('open-contact-support').click();
    const modal = page.getByRole('dialog', { name: 'Contact Support' });
    await modal.waitFor();

    await modal.getByRole('button', { name: 'Send Message' }).click();
    expect(await waitForText(page.getByTestId('contact-error'), AUTH_MESSAGES.emailRequired)).toBe(
      AUTH_MESSAGES.emailRequired,
    );
    expect(await modal.getByLabel('Email').getAttribute('type')).toBe('email');

    const email = uniqueEmail('visitor');
    const subject = `Cannot connect ${Date.now()}`;
    const message = 'My subscription shows no servers since this morning.';
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Subject').fill(subject);
    await modal.getByLabel('Message').fill(message);
    const since = suite.stack.smtp.mails.length;
    await modal.getByRole('button', { name: 'Send Message' }).click();
    expect(await waitForText(page.getByTestId('contact-success'), CONTACT_MESSAGES.sent)).toBe(
      CONTACT_MESSAGES.sent,
    );
    expect(await page.getByTestId('contact-error').count()).toBe(0);

    const mail = await suite.stack.smtp.waitFor('support@scn.test', { since });
    expect(mail.subject).toContain(subject);
    expect(mail.replyTo).toContain(email);
    expect(mail.text).toContain(message);

    const rows = await suite.stack.db.query<{ email: string; message: string; ip_address: string }>(
      'SELECT email, message, ip_address FROM contact_messages WHERE subject = $1',
      [subject],
    );
    expect(rows).toEqual([{ email, message, ip_address: '127.0.0.1' }]);
  });
});
