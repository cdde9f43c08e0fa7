import { paths, type AppPath } from '../../config/paths';

/** The catalogue key of a link's label (docs/i18n.md). */
export type NavLabelKey =
  | 'shell.nav.servers'
  | 'shell.nav.security'
  | 'shell.nav.ourView'
  | 'shell.nav.economics'
  | 'shell.nav.documentation'
  | 'shell.nav.faqs'
  | 'shell.nav.support'
  | 'shell.nav.terms'
  | 'shell.nav.privacyPolicy';

export interface NavLink {
  labelKey: NavLabelKey;
  href: AppPath;
}

/** docs/product/screens.md#the-shell-and-the-market-screens "Shell": the desktop links of the top bar (the mobile menu repeats them). */
export const MAIN_LINKS: readonly NavLink[] = [
  { labelKey: 'shell.nav.servers', href: paths.servers },
  { labelKey: 'shell.nav.security', href: paths.security },
  { labelKey: 'shell.nav.ourView', href: paths.ourView },
  { labelKey: 'shell.nav.economics', href: paths.economics },
];

export const RESOURCE_LINKS: readonly NavLink[] = [
  { labelKey: 'shell.nav.documentation', href: paths.documentation },
  { labelKey: 'shell.nav.faqs', href: paths.faqs },
  { labelKey: 'shell.nav.support', href: paths.support },
  { labelKey: 'shell.nav.economics', href: paths.economics },
  { labelKey: 'shell.nav.ourView', href: paths.ourView },
];

export const LEGAL_LINKS: readonly NavLink[] = [
  { labelKey: 'shell.nav.terms', href: paths.terms },
  { labelKey: 'shell.nav.privacyPolicy', href: paths.privacyPolicy },
  { labelKey: 'shell.nav.security', href: paths.security },
];
