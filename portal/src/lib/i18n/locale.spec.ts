import { describe, expect, it } from '@jest/globals';
import { detectLocale, directionOf, matchLocale } from './locale';

describe('detectLocale', () => {
  it("should take the account's preference first when every source has a language", () => {
    expect(detectLocale({ account: 'ru', stored: 'fa', languages: ['zh-CN'] })).toBe('ru');
  });

  it('should take the stored choice when the account has none', () => {
    expect(detectLocale({ account: null, stored: 'fa', languages: ['zh-CN'] })).toBe('fa');
  });

  it('should take the first browser language we speak when nothing is saved', () => {
    expect(detectLocale({ languages: ['de-DE', 'fa-IR', 'ru'] })).toBe('fa');
    expect(detectLocale({ languages: ['ru-UA', 'en'] })).toBe('ru');
  });

  it('should fall back to English when no source names a language we speak', () => {
    expect(detectLocale({ languages: ['de-DE', 'tr'] })).toBe('en');
    expect(detectLocale({})).toBe('en');
  });

  it('should ignore a saved value that is not one of ours', () => {
    expect(detectLocale({ account: 'de', stored: 'xx', languages: ['zh-TW'] })).toBe('zh');
  });
});

describe('matchLocale', () => {
  it('should map every Chinese tag to the Simplified catalogue', () => {
    expect(matchLocale('zh-CN')).toBe('zh');
    expect(matchLocale('zh-Hant-HK')).toBe('zh');
    expect(matchLocale('zh')).toBe('zh');
  });

  it('should match by the language subtag only', () => {
    expect(matchLocale('FA_ir')).toBe('fa');
    expect(matchLocale('en-GB')).toBe('en');
    expect(matchLocale('fr-FR')).toBeNull();
    expect(matchLocale('')).toBeNull();
  });
});

describe('directionOf', () => {
  it('should be right to left for Persian only', () => {
    expect(directionOf('fa')).toBe('rtl');
    expect(['en', 'ru', 'zh'].map((l) => directionOf(l as 'en'))).toEqual(['ltr', 'ltr', 'ltr']);
  });
});
