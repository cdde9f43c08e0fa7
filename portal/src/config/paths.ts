import { SUBSCRIPTION_FEED_PAGES } from '@scn/proto';

/** Typed route paths of the portal (spec 01 §2, spec 02 §2). */
export const paths = {
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

export type AppPath = (typeof paths)[keyof typeof paths];
