import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALES, type Locale } from '@scn/proto';
import { IntlMessageFormat } from 'intl-messageformat';

/**
 * The portal's catalogues that the control plane speaks from (docs/i18n.md "The control plane"):
 * `portal/src/locales/<namespace>/<locale>.json`, one source for the portal and the server.
 * The build copies them to `dist/locales/` (scripts/copy-locales.cjs), where the built server
 * reads them; run from the sources (unit specs), they are read where the portal keeps them.
 */
export const SERVER_NAMESPACES = ['email', 'sub-page'] as const;
export type ServerNamespace = (typeof SERVER_NAMESPACES)[number];

/** `Intl` tags: Persian digits and the Solar Hijri calendar, Simplified Chinese (as the portal). */
export const INTL_TAGS: Readonly<Record<Locale, string>> = {
  en: 'en-US',
  fa: 'fa-IR',
  ru: 'ru-RU',
  zh: 'zh-Hans-CN',
};

const CANDIDATES = [
  join(__dirname, '..', 'locales'),
  join(__dirname, '..', '..', '..', 'portal', 'src', 'locales'),
];

function localesDir(): string {
  const found = CANDIDATES.find((dir) => existsSync(join(dir, SERVER_NAMESPACES[0], 'en.json')));
  if (!found) throw new Error(`No catalogues in ${CANDIDATES.join(' or ')}`);
  return found;
}

type Catalogue = { [key: string]: string | Catalogue };

const catalogues = new Map<string, Catalogue>();
const formats = new Map<string, IntlMessageFormat>();

function catalogue(namespace: ServerNamespace, locale: Locale): Catalogue {
  const id = `${namespace}/${locale}`;
  let loaded = catalogues.get(id);
  if (!loaded) {
    loaded = JSON.parse(
      readFileSync(join(localesDir(), namespace, `${locale}.json`), 'utf8'),
    ) as Catalogue;
    catalogues.set(id, loaded);
  }
  return loaded;
}

function message(namespace: ServerNamespace, locale: Locale, key: string): string | undefined {
  let node: string | Catalogue | undefined = catalogue(namespace, locale);
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

export type MessageValues = Record<string, string | number>;

/**
 * `key` of `namespace` in `locale` with its ICU values (plurals in the language's own
 * categories); English when the language lacks it. Throws for a key English lacks too: a typo
 * must fail its test, not reach a reader as a key.
 */
export function translate(
  namespace: ServerNamespace,
  locale: Locale,
  key: string,
  values: MessageValues = {},
): string {
  const chosen = message(namespace, locale, key) !== undefined ? locale : 'en';
  const source = message(namespace, chosen, key);
  if (source === undefined) throw new Error(`No message ${namespace}:${key}`);
  const id = `${namespace}/${chosen}/${key}`;
  let format = formats.get(id);
  if (!format) {
    format = new IntlMessageFormat(source, INTL_TAGS[chosen]);
    formats.set(id, format);
  }
  return String(format.format(values));
}

/** `t(key, values)` of one namespace and language. */
export function translator(namespace: ServerNamespace, locale: Locale) {
  return (key: string, values?: MessageValues) => translate(namespace, locale, key, values);
}

/**
 * The first language of an `Accept-Language` header we speak, by its quality (`fa-IR`, `fa`:
 * Persian; every Chinese tag: Simplified), else English.
 */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  const ranked = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter(({ tag, q }) => tag !== '' && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranked) {
    const locale = asLocale(tag);
    if (locale) return locale;
  }
  return 'en';
}

/** A language we speak from a tag or saved value (`ru-RU` -> ru), else null. */
export function asLocale(value: unknown): Locale | null {
  if (typeof value !== 'string') return null;
  const primary = value.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return (LOCALES as readonly string[]).includes(primary) ? (primary as Locale) : null;
}

/** Text kept left to right inside right-to-left text (Unicode first-strong isolate). */
export function isolate(text: string): string {
  return `\u2068${text}\u2069`;
}
