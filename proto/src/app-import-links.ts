/**
 * One-tap imports of a subscription URL into the client apps: each app's documented deep link,
 * fed the subscription URL (the app then fetches it with its own User-Agent and gets its own
 * format). One table for the subscription page the control plane serves (`/sub/<secret>` in a
 * browser) and the portal's purchase result and QR dialog, so both open the same apps the same way.
 */

/** The apps with a deep link, in the order they are offered. */
export const IMPORT_APPS = ['v2rayNG', 'Hiddify', 'sing-box', 'Clash', 'Streisand'] as const;
export type ImportApp = (typeof IMPORT_APPS)[number];

export interface AppImportLink {
  /** Which app (a stable id, also what a test or a `data-testid` names). */
  id: ImportApp;
  /** How the app is named to a reader. */
  app: string;
  href: string;
}

/**
 * Hiddify takes the profile name from `hiddify://import/<url>#<name>` as the fragment's raw text,
 * never percent-decoded (its `LinkParser.deep`: `name: uri.fragment`), and a user-given name
 * wins over the feed's `profile-title`. A name whose characters a URI fragment cannot hold as
 * they are (a space, non-ASCII) would show percent-encoded (`SCN%20Subscription`): such a name
 * is left out, and Hiddify names the profile from the feed's `profile-title` header (UTF-8).
 */
const FRAGMENT_AS_IS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?]+$/;

export function hiddifyImportLink(url: string, name: string): string {
  return FRAGMENT_AS_IS.test(name) ? `hiddify://import/${url}#${name}` : `hiddify://import/${url}`;
}

const SCHEMES: Record<
  ImportApp,
  { app: string; href: (url: string, label: string, name: string) => string }
> = {
  v2rayNG: {
    app: 'v2rayNG',
    href: (url, name) => `v2rayng://install-config?url=${encodeURIComponent(url)}#${name}`,
  },
  // Hiddify and Streisand take the URL as the path, unencoded.
  Hiddify: { app: 'Hiddify', href: (url, _label, name) => hiddifyImportLink(url, name) },
  'sing-box': {
    app: 'sing-box',
    href: (url, name) => `sing-box://import-remote-profile?url=${encodeURIComponent(url)}#${name}`,
  },
  Clash: {
    app: 'Clash / mihomo',
    href: (url, name) => `clash://install-config?url=${encodeURIComponent(url)}&name=${name}`,
  },
  Streisand: { app: 'Streisand', href: (url, name) => `streisand://import/${url}#${name}` },
};

/** The deep link of every app for `url`, named `name` in the app's profile list. */
export function appImportLinks(url: string, name: string): AppImportLink[] {
  const label = encodeURIComponent(name);
  return IMPORT_APPS.map((id) => ({
    id,
    app: SCHEMES[id].app,
    href: SCHEMES[id].href(url, label, name),
  }));
}
