import { PORTAL_PAGES } from '@scn/proto';

/**
 * Typed route paths of the portal (spec 01 §2, spec 02 §2). The table lives in @scn/proto
 * (`PORTAL_PAGES`) because the control plane reads it too: a path that is none of these pages
 * gets the app with a 404 status (docs/api.md, "The portal").
 */
export const paths = PORTAL_PAGES;

export type AppPath = (typeof paths)[keyof typeof paths];
