import i18next from 'i18next';
import ICU from 'i18next-icu';
import { initReactI18next, useTranslation } from 'react-i18next';
import en from '../../locales/en.json';
import {
  DEFAULT_LOCALE,
  LOCALES,
  type Locale,
  detectLocale,
  directionOf,
  isLocale,
} from './locale';

/**
 * The portal's translations (docs/i18n.md): i18next with ICU messages. English is bundled; the
 * other catalogues are separate chunks loaded when chosen, so the first load stays light.
 */

/** The browser's stored choice of the language switcher. */
export const LOCALE_STORAGE_KEY = 'locale';

type Catalogue = typeof en;

const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Catalogue }>> = {
  fa: () => import('../../locales/fa.json'),
  ru: () => import('../../locales/ru.json'),
  zh: () => import('../../locales/zh.json'),
};

export const i18n = i18next.createInstance();

let ready: Promise<unknown> | null = null;

function readStored(): string | null {
  try {
    return localStorage.getItem(LOCALE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function applyToDocument(locale: Locale): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}

async function load(locale: Locale): Promise<void> {
  if (locale === 'en' || i18n.hasResourceBundle(locale, 'translation')) return;
  const catalogue = await loaders[locale]();
  i18n.addResourceBundle(locale, 'translation', catalogue.default);
}

/** Starts i18next in the detected language (its catalogue loaded) before the first render. */
export function initI18n(account?: string | null): Promise<unknown> {
  ready ??= (async () => {
    await i18n
      .use(ICU)
      .use(initReactI18next)
      .init({
        resources: { en: { translation: en } },
        lng: DEFAULT_LOCALE,
        fallbackLng: DEFAULT_LOCALE,
        supportedLngs: [...LOCALES],
        interpolation: { escapeValue: false },
        returnNull: false,
      });
    const locale = detectLocale({ account, stored: readStored(), languages: navigator.languages });
    await switchLocale(locale, { remember: false }).catch(() => applyToDocument(DEFAULT_LOCALE));
  })();
  return ready;
}

/**
 * Shows the portal in `locale`: loads its catalogue, then switches and sets `<html lang dir>`.
 * `remember` stores the choice in this browser (the switcher's choice, not a detected one).
 */
export async function switchLocale(
  locale: Locale,
  { remember = true }: { remember?: boolean } = {},
): Promise<void> {
  await load(locale);
  await i18n.changeLanguage(locale);
  applyToDocument(locale);
  if (remember) {
    try {
      localStorage.setItem(LOCALE_STORAGE_KEY, locale);
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
  }
}

/** The language shown now. */
export function currentLocale(): Locale {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLocale(language) ? language : DEFAULT_LOCALE;
}

/** `t` (keys typed from en.json) and the current locale, re-rendering on a switch. */
export function useT() {
  const { t, i18n: instance } = useTranslation();
  const language = instance.resolvedLanguage ?? instance.language;
  const locale: Locale = isLocale(language) ? language : DEFAULT_LOCALE;
  return { t, locale };
}
