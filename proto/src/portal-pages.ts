import { SUBSCRIPTION_FEED_PAGES } from './rest/subscriptions.contract';

/**
 * Every page of the portal (docs/product/screens.md#the-shell-and-the-market-screens, docs/product/screens.md#dashboards-and-information-pages), as wouter route patterns: the portal's
 * router (portal/src/config/paths.ts) declares its routes from this table, and the control plane
 * answers 200 with the app for a path that matches one and 404 (still the app, which shows its
 * not-found page) for any other. A dynamic segment is written `:name` and matches one non-empty
 * segment, as in wouter.
 */
export const PORTAL_PAGES = {
  home: '/',
  servers: '/servers',
  security: '/security',
  ourView: '/our-view',
  economics: '/economics',
  documentation: '/documentation',
  faqs: '/faqs',
  // Subscription feeds link to these two (profile-web-page-url, support-url).
  support: SUBSCRIPTION_FEED_PAGES.support,
  privacyPolicy: '/privacy-policy',
  terms: '/terms',
  clientDashboard: SUBSCRIPTION_FEED_PAGES.dashboard,
  nodeDashboard: '/node-dashboard',
} as const;

export type PortalPage = (typeof PORTAL_PAGES)[keyof typeof PORTAL_PAGES];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A route pattern as wouter matches it (its default matcher, regexparam's `parse` without
 * `loose`): whole path, `:name` one non-empty segment, an optional trailing slash, any case.
 * Only static and `:name` segments are supported; `portal-pages.spec.ts` compares the two.
 */
export function pagePattern(pattern: string): RegExp {
  const segments = pattern.split('/').filter(Boolean);
  for (const segment of segments) {
    if (/^:[A-Za-z0-9_]+$/.test(segment)) continue;
    if (/[:*?]/.test(segment)) throw new Error(`Unsupported route segment: ${segment}`);
  }
  const body = segments
    .map((segment) => (segment.startsWith(':') ? '/([^/]+?)' : `/${escapeRegExp(segment)}`))
    .join('');
  return new RegExp(`^${body}/?$`, 'i');
}

const PAGE_PATTERNS = Object.values(PORTAL_PAGES).map(pagePattern);

/** Whether `path` (a URL's path, without query or fragment) is one of the portal's pages. */
export function isPortalPage(path: string): boolean {
  return PAGE_PATTERNS.some((pattern) => pattern.test(path));
}
