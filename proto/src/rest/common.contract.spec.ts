import { canonicalUuid, firstIssueMessage, UUID_PATTERN, uuidSchema } from '../index';

const LOWER = '0b1e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b';

describe('uuidSchema', () => {
  it('should yield the lower-case canonical form when the UUID is in upper or mixed case', () => {
    expect(uuidSchema.parse(LOWER.toUpperCase())).toBe(LOWER);
    expect(uuidSchema.parse('0B1e2F3a-4c5D-4e6F-8a9B-0c1D2e3F4a5B')).toBe(LOWER);
    expect(uuidSchema.parse(LOWER)).toBe(LOWER);
  });

  it('should take any version and variant, and the nil UUID, when the shape is 8-4-4-4-12', () => {
    expect(uuidSchema.parse('00000000-0000-0000-0000-000000000000')).toBe(
      '00000000-0000-0000-0000-000000000000',
    );
    expect(uuidSchema.parse('ffffffff-ffff-ffff-ffff-ffffffffffff')).toBe(
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    );
  });

  it('should refuse with "must be a UUID" when the text is not one', () => {
    for (const value of [
      '',
      'not-a-uuid',
      `${LOWER} `,
      ` ${LOWER}`,
      `${LOWER}0`,
      LOWER.replace(/-/g, ''),
      LOWER.replace('0b', '0g'),
      '------------------------------------',
      `{${LOWER}}`,
    ]) {
      const result = uuidSchema.safeParse(value);
      expect({ value, message: result.success ? null : firstIssueMessage(result.error) }).toEqual({
        value,
        message: 'must be a UUID',
      });
    }
  });

  it('should refuse when the value is missing or not a string', () => {
    for (const value of [undefined, null, 42, [LOWER], { uuid: LOWER }]) {
      expect(uuidSchema.safeParse(value).success).toBe(false);
    }
  });
});

describe('canonicalUuid', () => {
  it('should answer the lower-case form of a UUID and null for anything else', () => {
    expect(canonicalUuid(LOWER.toUpperCase())).toBe(LOWER);
    expect(canonicalUuid('nope')).toBeNull();
    expect(canonicalUuid(undefined)).toBeNull();
  });

  it('should agree with UUID_PATTERN on which texts are UUIDs', () => {
    for (const value of [LOWER, LOWER.toUpperCase(), 'nope', `${LOWER}x`]) {
      expect(canonicalUuid(value) !== null).toBe(UUID_PATTERN.test(value));
    }
  });
});
