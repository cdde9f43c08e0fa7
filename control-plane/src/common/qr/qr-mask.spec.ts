import QRCode from 'qrcode';
import { applyBestMask, formatBits } from './qr-mask';

/** The library's internals that its mask choice goes through. */
interface MaskPatternModule {
  getPenaltyN1(data: QRCode.BitMatrix): number;
  getPenaltyN2(data: QRCode.BitMatrix): number;
  getPenaltyN3(data: QRCode.BitMatrix): number;
  getPenaltyN4(data: QRCode.BitMatrix): number;
}
interface FormatInfoModule {
  getEncodedBits(level: { bit: number }, mask: number): number;
}

/** mulberry32: a small seeded generator, so every run sees the same inputs. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBytes(random: () => number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) bytes[i] = Math.floor(random() * 256);
  return bytes;
}

function pick(random: () => number, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

const HEX = '0123456789abcdef';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const NAMES = ['Node 1', 'Frankfurt', 'Нода 7', '東京 3', 'Paris 🇫🇷', 'a b&c'];

/** A VLESS link of about `length` characters, cut to exactly that many. */
function vlessLink(random: () => number, length: number): string {
  const uuid = [8, 4, 4, 4, 12].map((n) => pick(random, HEX, n)).join('-');
  const host = `${pick(random, 'abcdefghijklmnopqrstuvwxyz', 3 + Math.floor(random() * 10))}.example.net`;
  let link =
    `vless://${uuid}@${host}:${1 + Math.floor(random() * 65535)}?encryption=none` +
    `&security=reality&sni=www.${host}&fp=chrome&pbk=${pick(random, BASE64URL, 43)}` +
    `&sid=${pick(random, HEX, 8)}&flow=xtls-rprx-vision&type=tcp`;
  while (link.length < length) link += `&spx=%2F${pick(random, BASE64URL, 20)}`;
  const name = NAMES[Math.floor(random() * NAMES.length)]!;
  return `${link}#${encodeURIComponent(name)}`.slice(0, length);
}

type Level = QRCode.QRCodeErrorCorrectionLevel;

function libraryDefault(data: Buffer, level: Level = 'L'): QRCode.QRCode {
  return QRCode.create([{ data, mode: 'byte' }], { errorCorrectionLevel: level });
}

function ours(data: Buffer, level: Level = 'L'): QRCode.QRCode {
  const qr = QRCode.create([{ data, mode: 'byte' }], {
    errorCorrectionLevel: level,
    maskPattern: 0,
  });
  applyBestMask(qr);
  return qr;
}

/** Where our symbol differs from the library's, or null when it is the same. */
function difference(data: Buffer, expected = libraryDefault(data), level: Level = 'L') {
  const actual = ours(data, level);
  const modules = expected.modules.data;
  let firstDifferentModule = -1;
  for (let i = 0; i < modules.length; i += 1) {
    if (actual.modules.data[i] !== modules[i]) {
      firstDifferentModule = i;
      break;
    }
  }
  if (actual.maskPattern === expected.maskPattern && firstDifferentModule < 0) return null;
  return {
    input: data.toString('hex'),
    version: expected.version,
    mask: actual.maskPattern,
    libraryMask: expected.maskPattern,
    firstDifferentModule,
  };
}

describe('applyBestMask', () => {
  it('should give the library default symbol and mask when given 330 varied links and byte strings', () => {
    const random = seeded(20240611);
    const inputs: Buffer[] = [];
    // Links from 20 to ~1,250 characters: versions 1 to 25, the range qrDataUrl draws.
    for (let i = 0; i < 200; i += 1) {
      inputs.push(Buffer.from(vlessLink(random, 20 + Math.floor(random() * 1230)), 'utf8'));
    }
    for (let i = 0; i < 120; i += 1)
      inputs.push(randomBytes(random, 1 + Math.floor(random() * 1272)));
    // A few beyond version 25, up to 40: the mask choice itself has no version limit.
    for (let i = 0; i < 10; i += 1)
      inputs.push(randomBytes(random, 1300 + Math.floor(random() * 1650)));

    const versions = new Set<number>();
    const masks = new Set<number>();
    const differences = [];
    for (const data of inputs) {
      const expected = libraryDefault(data);
      versions.add(expected.version);
      masks.add(expected.maskPattern!);
      const found = difference(data, expected);
      if (found) differences.push(found);
    }

    expect(differences).toEqual([]);
    // The inputs reach every mask and the whole version range, or the comparison proves little.
    expect([...masks].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(Math.min(...versions)).toBeLessThanOrEqual(2);
    expect(versions.has(25)).toBe(true);
    expect(Math.max(...versions)).toBeGreaterThan(30);
  });

  it('should pick the lowest tied mask when the library scores two masks the same', () => {
    const maskPattern = jest.requireActual<MaskPatternModule>('qrcode/lib/core/mask-pattern');
    // getBestMask calls its penalties through its exports: spies record the library's scores.
    const spies = (['getPenaltyN1', 'getPenaltyN2', 'getPenaltyN3', 'getPenaltyN4'] as const).map(
      (name) => jest.spyOn(maskPattern, name),
    );
    const random = seeded(7);
    const ties: Buffer[] = [];
    try {
      // Version 1 and 2 symbols are small enough for equal scores to happen about 1% of the time.
      for (let i = 0; i < 2000 && ties.length < 12; i += 1) {
        const data = randomBytes(random, 1 + Math.floor(random() * 30));
        for (const spy of spies) spy.mockClear();
        libraryDefault(data);
        const scores = [0, 1, 2, 3, 4, 5, 6, 7].map((mask) =>
          spies.reduce((sum, spy) => sum + (spy.mock.results[mask]!.value as number), 0),
        );
        const best = Math.min(...scores);
        if (scores.filter((score) => score === best).length > 1) ties.push(data);
      }
    } finally {
      for (const spy of spies) spy.mockRestore();
    }

    expect(ties.length).toBeGreaterThanOrEqual(5);
    expect(ties.map((data) => difference(data)).filter((d) => d !== null)).toEqual([]);
  });

  it('should give the library default symbol when given levels M, Q and H', () => {
    const random = seeded(3);
    const differences = [];
    for (const level of ['M', 'Q', 'H'] as const) {
      for (let i = 0; i < 20; i += 1) {
        const data = randomBytes(random, 1 + Math.floor(random() * 400));
        const found = difference(data, libraryDefault(data, level), level);
        if (found) differences.push({ level, ...found });
      }
    }
    expect(differences).toEqual([]);
  });

  it('should encode format info as the library does when given any level and mask', () => {
    const formatInfo = jest.requireActual<FormatInfoModule>('qrcode/lib/core/format-info');
    for (let level = 0; level < 4; level += 1) {
      for (let mask = 0; mask < 8; mask += 1) {
        expect(formatBits(level, mask)).toBe(formatInfo.getEncodedBits({ bit: level }, mask));
      }
    }
  });

  it('should throw when the symbol was not made with mask 0', () => {
    const qr = QRCode.create('text', { errorCorrectionLevel: 'L', maskPattern: 3 });
    expect(() => applyBestMask(qr)).toThrow('mask 0');
  });
});
