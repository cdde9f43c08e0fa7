import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium, never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

/**
 * The browser's language (navigator.languages) decides the portal's (docs/i18n.md): English
 * unless a test asks for another, whatever the machine's own locale.
 */
export function newContext(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
  locale = 'en-US',
  extraHTTPHeaders?: Record<string, string>,
): Promise<BrowserContext> {
  return browser.newContext({
    extraHTTPHeaders,
    baseURL,
    viewport,
    locale,
    permissions: ['clipboard-read', 'clipboard-write'],
    reducedMotion: 'reduce',
  });
}
