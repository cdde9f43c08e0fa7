/**
 * The portal's languages and how one is chosen (docs/i18n.md): the account's saved preference,
 * else the choice stored in this browser, else the first of `navigator.languages` we speak,
 * else English. Pure, so the order is unit-tested.
 */

import { LOCALES, type Locale } from '@scn/proto';

export { LOCALES, type Locale };
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language's own name, as the switcher shows it (a reader looks for their own script). */
export const LOCALE_NATIVE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  fa: 'فارسی',
  ru: 'Русский',
  zh: '中文',
};

/**
 * The tag given to `Intl`: `fa-IR` gives Persian digits and the Solar Hijri calendar, `zh-Hans-CN`
 * Simplified script whatever the browser's region.
 */
export const INTL_TAGS: Readonly<Record<Locale, string>> = {
  en: 'en-US',
  fa: 'fa-IR',
  ru: 'ru-RU',
  zh: 'zh-Hans-CN',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * A BCP 47 tag to one of ours by its language subtag: `fa-IR` -> fa, `ru-UA` -> ru, and every
 * `zh*` (zh-TW, zh-Hant-HK too) -> zh, which is Simplified: one Chinese catalogue for now.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(language) ? language : null;
}

export interface LocaleSources {
  /** The signed-in account's saved preference, if any. */
  account?: string | null;
  /** The choice stored in this browser by the switcher. */
  stored?: string | null;
  /** `navigator.languages`, most preferred first. */
  languages?: readonly string[];
}

export function detectLocale({ account, stored, languages = [] }: LocaleSources): Locale {
  if (isLocale(account)) return account;
  if (isLocale(stored)) return stored;
  for (const tag of languages) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return locale === 'fa' ? 'rtl' : 'ltr';
}
