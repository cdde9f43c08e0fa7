import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/**
 * Reading the page as a Persian, Russian or Chinese reader would (docs/i18n.md): catalogue
 * messages to find buttons by their translated names, Latin words left untranslated, and elements
 * that make a phone scroll sideways.
 */

const LOCALES_DIR = join(__dirname, '..', '..', '..', 'src', 'locales');

type Catalogue = { [key: string]: string | Catalogue };
const catalogues = new Map<string, Catalogue>();

/**
 * The message of `key` in `namespace` ('translation' is the common catalogue) for `locale`, with
 * simple `{name}` variables replaced from `values`. For finding elements by their visible names.
 */
export function message(
  locale: string,
  namespace: string,
  key: string,
  values: Record<string, string> = {},
): string {
  const file =
    namespace === 'translation'
      ? join(LOCALES_DIR, `${locale}.json`)
      : join(LOCALES_DIR, namespace, `${locale}.json`);
  let catalogue = catalogues.get(file);
  if (!catalogue) {
    catalogue = JSON.parse(readFileSync(file, 'utf8')) as Catalogue;
    catalogues.set(file, catalogue);
  }
  let node: string | Catalogue | undefined = catalogue;
  for (const part of key.split('.')) {
    node = typeof node === 'object' ? node[part] : undefined;
  }
  if (typeof node !== 'string') throw new Error(`No message ${namespace}:${key} in ${locale}`);
  return node.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/**
 * Latin-script words a Persian reader may see: product, protocol and app names, the technical
 * acronyms Persian writing about these services keeps in Latin letters (DPI, HTTPS, DDoS), units,
 * and the currencies, which stay in Latin letters on purpose (docs/i18n.md).
 */
export const LATIN_ALLOWED = new Set(
  [
    'SCN',
    'SSL',
    'SOL',
    'USD',
    'USDC',
    'USDT',
    'VLESS',
    'VPS',
    'UUID',
    'TLS',
    'QR',
    'API',
    'UTC',
    'DNS',
    'IP',
    'DPI',
    'HTTP',
    'HTTPS',
    'DDoS',
    'CDN',
    'SSH',
    'SSD',
    'RAM',
    'CPU',
    'NekoBox',
    'TCP',
    'WebSocket',
    'ws',
    'gRPC',
    'REALITY',
    'Xray',
    'Solana',
    'Pay',
    'Phantom',
    'Solflare',
    'v2rayNG',
    'v2rayN',
    'v2ray',
    'Hiddify',
    'Streisand',
    'sing-box',
    'Clash',
    'mihomo',
    'Shadowrocket',
    'FoXray',
    'Nekoray',
    'Telegram',
    'X',
    'Instagram',
    'Linux',
    'Ubuntu',
    'Debian',
    'Android',
    'iOS',
    'Windows',
    'macOS',
    'APK',
    'SHA',
    'SHA-256',
    'B',
    'kB',
    'MB',
    'GB',
    'TB',
    'Mbps',
    'GitHub',
    'Google',
    'Play',
    'App',
    'Store',
    'Secure',
    'Connection',
    'Network',
  ].map((word) => word.toLowerCase()),
);

/**
 * Latin-script words in the visible text and the placeholders and accessible labels of the page,
 * outside what stays left to right on purpose (`dir="ltr"`, `<bdi>`, code, inputs' values,
 * addresses), beyond the allow-list. Each entry names the word and where it was seen.
 */
export async function untranslatedWords(page: Page): Promise<string[]> {
  const found = await page.evaluate(() => {
    const out: { word: string; where: string }[] = [];
    const skip = (element: Element | null): boolean =>
      !!element?.closest(
        '[dir="ltr"], bdi, code, pre, kbd, samp, script, style, svg, [aria-hidden="true"], .sr-only-ltr, [data-i18n-ignore]',
      );
    const visible = (element: Element): boolean => {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 && rect.height === 0) return false;
      const style = getComputedStyle(element);
      return style.visibility !== 'hidden' && style.display !== 'none';
    };
    const take = (text: string, where: Element) => {
      // URLs, e-mail addresses, host names and hashes are data, not words.
      const cleaned = text
        .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' ')
        .replace(/\S+@\S+/g, ' ')
        .replace(/\b[\w-]+(\.[\w-]+)+\b/g, ' ');
      for (const match of cleaned.matchAll(/[A-Za-z][A-Za-z0-9-]*/g)) {
        const name = `${where.tagName.toLowerCase()}${where.id ? `#${where.id}` : ''}.${[...where.classList].join('.')}`;
        out.push({ word: match[0], where: `${name}: ${text.trim().slice(0, 60)}` });
      }
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || skip(parent) || !visible(parent)) continue;
      if (node.textContent?.trim()) take(node.textContent, parent);
    }
    for (const element of document.body.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (skip(element) || !visible(element)) continue;
      for (const attribute of ['placeholder', 'aria-label', 'title']) {
        const value = element.getAttribute(attribute);
        if (value) take(value, element);
      }
    }
    return out;
  });
  return found
    .filter(({ word }) => !LATIN_ALLOWED.has(word.toLowerCase()))
    .map(({ word, where }) => `${word} (${where})`);
}

/**
 * Visible elements that reach past either edge of the viewport (a horizontal scroll on a
 * phone). Elements inside a box that scrolls or clips sideways are that box's business.
 */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    const clipped = (element: Element): boolean => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const overflowX = getComputedStyle(parent).overflowX;
        if (overflowX !== 'visible') return true;
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
        const name = `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`;
        found.push(`${name} [${Math.round(rect.left)}, ${Math.round(rect.right)}] of ${width}`);
      }
    }
    if (document.documentElement.scrollWidth > width + 1) {
      found.push(`document scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    }
    return found;
  });
}

/**
 * Serves `path` as a control plane whose launch period ends at `endsAt` would (LAUNCH_PERIOD_ENDS):
 * the page's `scn:launch-period-ends`, and `scn:launch-period-active` by the real clock.
 */
export async function withLaunchPeriodEnding(
  page: Page,
  path: string,
  endsAt: Date,
): Promise<void> {
  await page.route(`**${path}`, async (route) => {
    const response = await route.fetch();
    const html = (await response.text())
      .replace(
        /(<meta name="scn:launch-period-ends" content=")[^"]*(")/,
        `$1${endsAt.toISOString()}$2`,
      )
      .replace(
        /(<meta name="scn:launch-period-active" content=")[^"]*(")/,
        `$1${String(Date.now() <= endsAt.getTime())}$2`,
      );
    await route.fulfill({ response, body: html });
  });
}
