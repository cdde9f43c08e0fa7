import { chooseEncoding } from './content-encoding';

describe('chooseEncoding', () => {
  it.each([
    [undefined, ['br', 'gzip'], 'identity'],
    ['', ['br', 'gzip'], 'identity'],
    ['gzip, deflate, br, zstd', ['br', 'gzip'], 'br'],
    ['gzip, deflate, br', ['gzip'], 'gzip'],
    ['gzip, deflate, br', [], 'identity'],
    ['BR;Q=1', ['br', 'gzip'], 'br'],
    ['br;q=0, gzip', ['br', 'gzip'], 'gzip'],
    ['br;q=0.5, gzip;q=0.8', ['br', 'gzip'], 'gzip'],
    ['br;q=0.8, gzip;q=0.8', ['br', 'gzip'], 'br'],
    ['x-gzip', ['br', 'gzip'], 'gzip'],
    ['*', ['br', 'gzip'], 'br'],
    ['*;q=0', ['br', 'gzip'], 'identity'],
    ['identity;q=0, gzip;q=0', ['gzip'], 'identity'],
    ['br;q=2', ['br', 'gzip'], 'identity'],
    ['deflate', ['br', 'gzip'], 'identity'],
    ['gzip;q=0.001, identity;q=0', ['br', 'gzip'], 'gzip'],
  ] as const)(
    'should answer Accept-Encoding %p with %p available as %p',
    (header, available, expected) => {
      expect(chooseEncoding(header, available)).toBe(expected);
    },
  );
});
