import QRCode from 'qrcode';
import { byteSymbol, type EcLevel } from './qr-symbol';

/** Seeded bytes (mulberry32), so every run checks the same symbols. */
function randomBytes(length: number, seed: number): Buffer {
  let state = seed;
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

function librarySymbol(bytes: Buffer, level: EcLevel) {
  return QRCode.create([{ data: bytes, mode: 'byte' }], {
    errorCorrectionLevel: level,
    maskPattern: 0,
  });
}

describe('byteSymbol', () => {
  it('should build the library mask-0 symbol bit for bit at every version and level, fullest and emptiest', () => {
    const differences: string[] = [];
    let checked = 0;
    for (const level of ['L', 'M', 'Q', 'H'] as const) {
      let smallest = 1;
      for (let version = 1; version <= 40; version += 1) {
        // The most bytes this version holds, and the fewest that need it.
        let largest = smallest;
        while (byteSymbol(Buffer.alloc(largest + 1), level)?.version === version) largest += 1;
        for (const length of new Set([smallest, largest])) {
          const bytes = randomBytes(length, version * 31 + length);
          const ours = byteSymbol(bytes, level)!;
          const theirs = librarySymbol(bytes, level);
          checked += 1;
          if (
            ours.version !== theirs.version ||
            !Buffer.from(ours.modules.data).equals(Buffer.from(theirs.modules.data)) ||
            !Buffer.from(ours.modules.reservedBit).equals(Buffer.from(theirs.modules.reservedBit))
          ) {
            differences.push(`${level} ${length} bytes (version ${theirs.version})`);
          }
        }
        smallest = largest + 1;
      }
    }
    expect(differences).toEqual([]);
    expect(checked).toBe(4 * 40 * 2);
  });

  it('should pick the version the library picks for text of any length', () => {
    for (let length = 1; length <= 400; length += 7) {
      const bytes = randomBytes(length, length);
      expect(byteSymbol(bytes, 'L')!.version).toBe(librarySymbol(bytes, 'L').version);
    }
  });

  it('should refuse bytes that no version holds', () => {
    expect(byteSymbol(Buffer.alloc(2953), 'L')?.version).toBe(40);
    expect(byteSymbol(Buffer.alloc(2954), 'L')).toBeNull();
    expect(byteSymbol(Buffer.alloc(1274), 'H')).toBeNull();
  });
});
