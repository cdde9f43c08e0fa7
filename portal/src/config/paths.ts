/** Typed route paths of the portal (spec 01 §2, spec 02 §2). */
export const paths = {
  home: '/',
  servers: '/servers',
  security: '/security',
  ourView: '/our-view',
  economics: '/economics',
  documentation: '/documentation',
  faqs: '/faqs',
  support: '/support',
  privacyPolicy: '/privacy-policy',
  terms: '/terms',
  clientDashboard: '/client-dashboard',
  nodeDashboard: '/node-dashboard',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
