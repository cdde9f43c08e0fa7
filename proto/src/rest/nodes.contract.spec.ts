import {
  COUNTRY_CODES,
  firstIssueMessage,
  isCountryCode,
  SERVER_SETTINGS_MESSAGES,
  serverCountrySchema,
  updateServerRequestSchema,
} from '../index';

function messageOf(value: unknown): string | null {
  const result = updateServerRequestSchema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
}

describe('countries', () => {
  it('should hold the 249 assigned ISO 3166-1 alpha-2 codes, each once', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect(COUNTRY_CODES.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
  });

  it('should accept assigned codes only, in upper case', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
    // User-assigned and exceptionally reserved codes are not countries of ISO 3166-1.
    expect(isCountryCode('XK')).toBe(false);
    expect(isCountryCode('UK')).toBe(false);
    expect(isCountryCode('EU')).toBe(false);
  });

  it('should forgive blanks and lower case but store upper case', () => {
    expect(serverCountrySchema.parse(' de ')).toBe('DE');
    expect(serverCountrySchema.safeParse('DEU').success).toBe(false);
  });
});

describe('updateServerRequestSchema (Node Configuration)', () => {
  it('should trim the name, upper-case the country and turn an empty location into null', () => {
    expect(
      updateServerRequestSchema.parse({ name: '  Frankfurt 1 ', country: 'de', location: '  ' }),
    ).toEqual({ name: 'Frankfurt 1', country: 'DE', location: null });
    expect(updateServerRequestSchema.parse({ country: null })).toEqual({ country: null });
  });

  it.each([
    [{}, SERVER_SETTINGS_MESSAGES.nothingToUpdate],
    [{ name: '   ' }, SERVER_SETTINGS_MESSAGES.nameRequired],
    [{ name: 'x'.repeat(101) }, SERVER_SETTINGS_MESSAGES.nameTooLong],
    [{ name: 'two\nlines' }, SERVER_SETTINGS_MESSAGES.nameInvalid],
    [{ name: 42 }, 'Name must be a string'],
    [{ country: 'ZZ' }, SERVER_SETTINGS_MESSAGES.countryInvalid],
    [{ country: 'Germany' }, SERVER_SETTINGS_MESSAGES.countryInvalid],
    [{ country: 49 }, SERVER_SETTINGS_MESSAGES.countryInvalid],
    [{ location: 'l'.repeat(101) }, SERVER_SETTINGS_MESSAGES.locationTooLong],
    [{ location: 'tab\there' }, SERVER_SETTINGS_MESSAGES.locationInvalid],
    [{ reliability: 100 }, 'Unknown field: reliability'],
    [[], 'Request body must be a JSON object'],
  ])('should refuse %j with "%s"', (body, message) => {
    expect(messageOf(body)).toBe(message);
  });

  it('should accept a location of exactly 100 characters', () => {
    expect(messageOf({ location: 'l'.repeat(100) })).toBeNull();
  });
});
