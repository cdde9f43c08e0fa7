import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, newContext } from './browser';
import { type Account, WAIT_MS, cookieEntries, seedStorage, sessionEntries } from './portal';
import { type Stack, type StackOptions, startStack } from './stack';

export interface OpenOptions {
  viewport?: typeof DESKTOP;
  /** Signed in as this account by seeding localStorage. */
  account?: Account;
  /** Pre-accept cookies so the banner stays out of the way (default true). */
  cookies?: boolean;
  /** The browser's language (default en-US). */
  locale?: string;
  /** Headers on every request, e.g. X-Forwarded-For to place the visitor (TRUST_PROXY). */
  headers?: Record<string, string>;
}

export interface BrowserSuite {
  /** The control plane, database and SMTP capture of this test file. */
  readonly stack: Stack;
  /** A fresh context (own storage) and page, closed after the test. */
  openPage(options?: OpenOptions): Promise<Page>;
}

/**
 * One stack and one browser per test file, a fresh context per page: registers the jest hooks
 * that start them and clean up after every test.
 */
export function browserSuite(options: StackOptions = {}): BrowserSuite {
  let stack: Stack | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    [stack, browser] = await Promise.all([startStack(options), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });

  const started = (): { stack: Stack; browser: Browser } => {
    if (!stack || !browser)
      throw new Error('The browser suite has not started (beforeAll failed?)');
    return { stack, browser };
  };

  return {
    get stack() {
      return started().stack;
    },
    async openPage(options = {}) {
      const { stack: current, browser: chromium } = started();
      const context = await newContext(
        chromium,
        current.baseUrl,
        options.viewport ?? DESKTOP,
        options.locale,
        options.headers,
      );
      contexts.push(context);
      context.setDefaultTimeout(WAIT_MS);
      context.setDefaultNavigationTimeout(WAIT_MS);
      await seedStorage(context, {
        ...(options.cookies === false ? {} : cookieEntries()),
        ...(options.account ? sessionEntries(options.account) : {}),
      });
      return context.newPage();
    },
  };
}
