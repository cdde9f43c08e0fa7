import { clip } from './hardware';

describe('clip', () => {
  it('should make one line without control characters, at most max characters', () => {
    expect(clip('  Intel(R)\tXeon(R)\u0000 Gold\n6248R\u007f  ', 64)).toBe(
      'Intel(R) Xeon(R) Gold 6248R',
    );
    expect(clip('AMD EPYC 7B13 64-Core Processor', 8)).toBe('AMD EPYC');
  });
});
