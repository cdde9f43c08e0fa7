import { PORTAL_PAGES } from '@scn/proto';

/**
 * Typed route paths of the portal (docs/product/screens.md#the-shell-and-the-market-screens, docs/product/screens.md#dashboards-and-information-pages). The table lives in @scn/proto
 * (`PORTAL_PAGES`) because the control plane reads it too: a path that is none of these pages
 * gets the app with a 404 status (docs/api.md, "The portal").
 */
export const paths = PORTAL_PAGES;

export type AppPath = (typeof paths)[keyof typeof paths];
