import { asLocale, localeFromAcceptLanguage, translate } from './catalogues';

describe('localeFromAcceptLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['fa-IR,fa;q=0.9,en-US;q=0.8', 'fa'],
    ['de-DE,ru;q=0.8,en;q=0.5', 'ru'],
    ['zh-TW', 'zh'],
    ['en;q=0.5, zh-CN;q=0.9', 'zh'],
    ['de, fr;q=0.9', 'en'],
    ['fa;q=0', 'en'],
  ])('should read %j as %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });

  it('should take a saved or asked language we speak, and nothing else', () => {
    expect([asLocale('ru-RU'), asLocale('fa'), asLocale('de'), asLocale(3)]).toEqual([
      'ru',
      'fa',
      null,
      null,
    ]);
  });
});

describe('translate', () => {
  it("should format a catalogue's ICU message in the language, with its values", () => {
    expect(translate('sub-page', 'ru', 'importTo', { app: 'Hiddify' })).toBe('Импорт в Hiddify');
    expect(translate('sub-page', 'en', 'importTo', { app: 'Hiddify' })).toBe('Import to Hiddify');
  });

  it('should refuse a key the catalogue does not have', () => {
    expect(() => translate('sub-page', 'fa', 'no.such.key')).toThrow(
      'No message sub-page:no.such.key',
    );
  });
});
