import { COUNTRY_NAMES } from '@scn/proto';

/**
 * Which countries a market search names (docs/i18n.md "Country search"): a search finds a
 * country by its name in English, Persian, Russian or Chinese ("Germany", "آلمان", "Германия",
 * "德国"), by an everyday alias ("USA", "آمریکا") or by its code ("de"). Pure: the SQL filter
 * adds the countries it returns to the text match.
 */

/** A shorter term would name most of the world ("a", "и"). */
const MIN_TERM_LENGTH = 2;

/**
 * One spelling for the ways people type a name: case, diacritics and vowel marks ("Türkiye",
 * "کرهٔ", "ё"), the Arabic and Persian forms of yeh and kaf (Iranian keyboards differ), the
 * zero-width non-joiner against a space ("هنگ‌کنگ"), punctuation.
 */
export function normalizeCountryText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670\u0640]/g, '')
    .toLowerCase()
    .replace(/[\u064a\u0649]/g, '\u06cc')
    .replace(/\u0643/g, '\u06a9')
    .replace(/[\u200c\u200d\s\-‐–—,.()'’、，（）]+/g, ' ')
    .trim();
}

const INDEX: readonly { code: string; names: readonly string[] }[] = Object.entries(
  COUNTRY_NAMES,
).map(([code, names]) => ({ code, names: names.map(normalizeCountryText) }));

/**
 * The codes of the countries whose name, or a word of it, starts with `term`, and the country
 * whose code `term` is.
 */
export function countriesMatching(term: string): string[] {
  const wanted = normalizeCountryText(term);
  if ([...wanted].length < MIN_TERM_LENGTH) return [];
  return INDEX.filter(
    ({ code, names }) =>
      code.toLowerCase() === wanted ||
      names.some((name) => name.startsWith(wanted) || name.includes(` ${wanted}`)),
  ).map(({ code }) => code);
}
