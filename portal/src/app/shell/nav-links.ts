import { paths, type AppPath } from '../../config/paths';

export interface NavLink {
  label: string;
  href: AppPath;
}

/** spec 01 §2 "Shell": the desktop links of the top bar (the mobile menu repeats them). */
export const MAIN_LINKS: readonly NavLink[] = [
  { label: 'Servers', href: paths.servers },
  { label: 'Security', href: paths.security },
  { label: 'Our View', href: paths.ourView },
  { label: 'Service Economics', href: paths.economics },
];

export const RESOURCE_LINKS: readonly NavLink[] = [
  { label: 'Documentation', href: paths.documentation },
  { label: 'FAQs', href: paths.faqs },
  { label: 'Support', href: paths.support },
  { label: 'Service Economics', href: paths.economics },
  { label: 'Our View', href: paths.ourView },
];

export const LEGAL_LINKS: readonly NavLink[] = [
  { label: 'Terms', href: paths.terms },
  { label: 'Protection Policy', href: paths.privacyPolicy },
  { label: 'Security', href: paths.security },
];
