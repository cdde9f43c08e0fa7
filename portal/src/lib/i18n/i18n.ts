import i18next, { type BackendModule } from 'i18next';
import ICU from 'i18next-icu';
import { useEffect } from 'react';
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
 * The portal's translations (docs/i18n.md): i18next with ICU messages. The common catalogue
 * (`locales/<locale>.json`, namespace `translation`) holds the shell and what every page shares;
 * English's is bundled, the others are chunks loaded when chosen. Each area of the product has a
 * namespace of its own (`locales/<namespace>/<locale>.json`), a chunk fetched with the first
 * component that asks for it (`useT('client')`), so a page loads only its own words.
 */

/** The browser's stored choice of the language switcher. */
export const LOCALE_STORAGE_KEY = 'locale';

/** The areas with a catalogue of their own, each `locales/<namespace>/<locale>.json`. */
export const NAMESPACES = [
  'client',
  'wallet',
  'earn',
  'node',
  'vantage',
  'errors',
  'economics',
  'faq',
  'documentation',
  'support',
  'security',
  'our-view',
  'legal',
] as const;
export type Namespace = 'translation' | (typeof NAMESPACES)[number];

type Catalogue = Record<string, unknown>;

/** Fetches one catalogue chunk (Vite builds one chunk per JSON file these patterns match). */
function importCatalogue(locale: Locale, namespace: string): Promise<{ default: Catalogue }> {
  return namespace === 'translation'
    ? import(`../../locales/${locale}.json`)
    : import(`../../locales/${namespace}/${locale}.json`);
}

/** i18next's loader for every catalogue that is not bundled. */
const catalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    if (!isLocale(language)) {
      callback(new Error(`No catalogue for ${language}`), false);
      return;
    }
    importCatalogue(language, namespace).then(
      (module) => callback(null, module.default),
      (error: unknown) =>
        callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
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

/** Starts i18next in the detected language (its catalogue loaded) before the first render. */
export function initI18n(account?: string | null): Promise<unknown> {
  ready ??= (async () => {
    await i18n
      .use(ICU)
      .use(catalogues)
      .use(initReactI18next)
      .init({
        resources: { en: { translation: en } },
        // English's common catalogue is bundled; everything else comes through `catalogues`.
        partialBundledLanguages: true,
        ns: ['translation'],
        defaultNS: 'translation',
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
  // Loads the common catalogue and every namespace already in use, in the new language.
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

/**
 * `t` (keys typed from the namespace's en.json; the common catalogue by default) and the current
 * locale, re-rendering on a switch. A namespace not loaded yet suspends the component until its
 * chunk arrives: a route asks for its namespaces at its top, so its dialogs never wait.
 */
export function useT<N extends Namespace = 'translation'>(namespace?: N) {
  const { t, i18n: instance } = useTranslation<N>(namespace);
  const language = instance.resolvedLanguage ?? instance.language;
  const locale: Locale = isLocale(language) ? language : DEFAULT_LOCALE;
  return { t, locale };
}

/**
 * Fetches namespaces in the background, without suspending: for a dialog the page may open (the
 * market's purchase dialogs, the sign-up's terms), so it opens at once instead of waiting.
 */
export function usePreloadedNamespaces(namespaces: readonly Namespace[], when = true): void {
  const key = when ? namespaces.join(' ') : '';
  useEffect(() => {
    if (key) void i18n.loadNamespaces(key.split(' '));
  }, [key]);
}
