import { COUNTRY_CODES, COUNTRY_NAMES } from '@scn/proto';
import { countriesMatching, normalizeCountryText } from './country-search';

describe('countriesMatching', () => {
  it('should find Germany by its name in each of the four languages and by its code', () => {
    for (const term of ['Germany', 'آلمان', 'Германия', '德国', 'de', 'DE']) {
      expect(countriesMatching(term)).toContain('DE');
    }
  });

  it('should find a country by the start of its name or of a word in it', () => {
    expect(countriesMatching('germ')).toEqual(['DE']);
    expect(countriesMatching('Герм')).toEqual(['DE']);
    expect(countriesMatching('korea')).toEqual(expect.arrayContaining(['KP', 'KR']));
  });

  it('should find a country by the everyday names people use when CLDR has a formal one', () => {
    expect(countriesMatching('USA')).toContain('US');
    expect(countriesMatching('آمریکا')).toContain('US');
    expect(countriesMatching('США')).toContain('US');
    expect(countriesMatching('انگلیس')).toContain('GB');
  });

  it('should match however Persian is typed: Arabic yeh and kaf, a space for the non-joiner, no hamza', () => {
    // Arabic yeh (U+064A) and kaf (U+0643) against the Persian forms in CLDR.
    expect(countriesMatching('\u0631\u0648\u0633\u064a\u0647')).toEqual(['RU']);
    expect(countriesMatching('هنگ کنگ')).toContain('HK');
    expect(countriesMatching('کره جنوبی')).toContain('KR');
  });

  it('should ignore case, diacritics and ё', () => {
    expect(countriesMatching('turkiye')).toContain('TR');
    expect(countriesMatching('ЁЛКА')).toEqual([]);
    expect(normalizeCountryText('Соединённые Штаты')).toBe('соединенные штаты');
  });

  it('should name no country for a term too short or naming none', () => {
    expect(countriesMatching('a')).toEqual([]);
    expect(countriesMatching('  ')).toEqual([]);
    expect(countriesMatching('helsinki-edge-01')).toEqual([]);
  });

  it('should have names in all four languages for every assigned country', () => {
    for (const code of COUNTRY_CODES) {
      expect((COUNTRY_NAMES[code] ?? []).length).toBeGreaterThanOrEqual(4);
    }
    expect(Object.keys(COUNTRY_NAMES).sort()).toEqual([...COUNTRY_CODES].sort());
  });
});
