import { UuidPipe } from './uuid-param';

const ID = '0b1e2f3a-4c5d-4e6f-8a9b-0c1d2e3f4a5b';

class ProbeError extends Error {}

describe('UuidPipe', () => {
  const pipe = new UuidPipe(() => new ProbeError('not found'));

  it('should yield the lower-case canonical form when the UUID is in upper or mixed case', () => {
    expect(pipe.transform(ID.toUpperCase())).toBe(ID);
    expect(pipe.transform('0B1e2F3a-4C5d-4E6f-8A9b-0C1d2E3f4A5b')).toBe(ID);
    expect(pipe.transform(ID)).toBe(ID);
  });

  it("should throw the caller's error when the value is not a UUID", () => {
    for (const value of ['nope', `${ID} `, ID.replace(/-/g, ''), '-'.repeat(36), '']) {
      expect(() => pipe.transform(value)).toThrow(ProbeError);
    }
  });

  it("should throw the caller's error when the value is missing", () => {
    expect(() => pipe.transform(undefined)).toThrow(ProbeError);
    expect(() => pipe.transform(null)).toThrow(ProbeError);
  });
});
