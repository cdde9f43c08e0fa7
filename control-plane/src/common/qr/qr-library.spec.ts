import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import QRCode from 'qrcode';
import { applyBestMask } from './qr-mask';
import { byteSymbol, type EcLevel } from './qr-symbol';

/**
 * The `qrcode` release the encoder is checked against. The encoder reproduces the library's
 * default symbol for speed (docs/benchmarks.md, "QR encoder and the qrcode public API"), so an
 * upgrade is a deliberate step: change the pinned version, then make this file and the other
 * specs of this folder pass again.
 */
const PINNED = '1.5.4';

const packageJson = (path: string) =>
  JSON.parse(readFileSync(path, 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };

const LINK =
  'vless://3f2b8c1e-1234-4abc-8def-0123456789ab@node.example.net:443?encryption=none&security=reality&sni=www.example.com&fp=chrome&pbk=Xs7d8fK2lq9Zp0aQw3E4rT5yU6iO7pA8sD9fG0hJ1kL&sid=6ba85179&flow=xtls-rprx-vision&type=tcp#Node%201';

const SUBSCRIPTION_URL = `https://scn.example.com/sub/${'Ab3_'.repeat(10)}Ab3`;
const LONG_LINK = `${LINK}&spx=${'%2Fabcdefghij'.repeat(60)}`;

/**
 * The library's default symbol of each text and level (every level and mask occurs), recorded
 * from qrcode 1.5.4: version, mask and the start of the sha256 of `modules.data` (one byte per
 * module). Our symbols take their function patterns from the library's: these catch a release
 * that would change both alike.
 */
type Golden = [
  label: string,
  level: EcLevel,
  text: string,
  version: number,
  mask: number,
  sha256: string,
];
const GOLDEN: Golden[] = [
  ['a subscription URL', 'L', SUBSCRIPTION_URL, 4, 2, '834af5c66e0a251e'],
  ['a reality link', 'L', LINK, 9, 2, '126cf4ffe0550768'],
  ['a reality link', 'M', LINK, 11, 2, 'b8fa92f3488e3c0f'],
  ['a reality link', 'Q', LINK, 13, 2, 'b2e3971137856240'],
  ['a reality link', 'H', LINK, 16, 2, '3c26f028d88a9b21'],
  ['a 1,014-byte link', 'L', LONG_LINK, 23, 2, 'd5cc6c709594d332'],
  ['SCN', 'H', 'SCN', 1, 0, '2fe853abd3476f48'],
  ['2,000 bytes', 'L', 'z'.repeat(2000), 33, 1, '08fd6680fac747cc'],
  ['digits', 'L', '0123456789', 1, 3, '1d95d1bf4efb5e0d'],
  ['non-ASCII text', 'L', 'Нода 7 東京 3', 2, 4, 'cc431485ae620e02'],
  ['50 bytes', 'H', 'a'.repeat(50), 6, 5, '1a4b3f01f5159a73'],
  ['a minimal link', 'H', 'vless://x@y:1', 2, 6, 'e9eeb85df4ad8342'],
  ['hello', 'L', 'hello', 1, 7, '16fcb7e586dec1c5'],
];

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex').slice(0, 16);

describe('the qrcode library the encoder copies', () => {
  it('should be installed at the exact version control-plane/package.json pins', () => {
    const pinned = packageJson(join(__dirname, '..', '..', '..', 'package.json')).dependencies
      .qrcode;
    expect(pinned).toBe(PINNED);
    expect(packageJson(require.resolve('qrcode/package.json')).version).toBe(PINNED);
  });

  it('should build symbols through create with the shape the encoder reads', () => {
    // qr-symbol.ts takes function patterns and data modules from create(..., maskPattern: 0);
    // qr-mask.ts reads and rewrites modules.data by reservedBit and errorCorrectionLevel.bit.
    const qr = QRCode.create([{ data: Buffer.from(LINK), mode: 'byte' }], {
      errorCorrectionLevel: 'Q',
      maskPattern: 0,
    });
    expect(qr.maskPattern).toBe(0);
    expect(qr.errorCorrectionLevel.bit).toBe(3);
    const { size, data, reservedBit } = qr.modules;
    expect(size).toBe(4 * qr.version + 17);
    expect(data).toBeInstanceOf(Uint8Array);
    expect(reservedBit).toBeInstanceOf(Uint8Array);
    expect([data.length, reservedBit.length]).toEqual([size * size, size * size]);
    expect(new Set(data)).toEqual(new Set([0, 1]));
  });

  it('should keep the internals qr-mask.spec checks the mask choice against', () => {
    // Test-only: the mask penalties (for the tie-break) and the format info encoder.
    const maskPattern = jest.requireActual<Record<string, unknown>>('qrcode/lib/core/mask-pattern');
    const formatInfo = jest.requireActual<Record<string, unknown>>('qrcode/lib/core/format-info');
    for (const name of ['getPenaltyN1', 'getPenaltyN2', 'getPenaltyN3', 'getPenaltyN4']) {
      expect(typeof maskPattern[name]).toBe('function');
    }
    expect(typeof formatInfo.getEncodedBits).toBe('function');
  });

  it.each(GOLDEN)(
    'should give the recorded symbol, ours and the library alike, when given %s at level %s',
    (_label, level, text, version, mask, hash) => {
      const bytes = Buffer.from(text, 'utf8');
      const library = QRCode.create([{ data: bytes, mode: 'byte' }], {
        errorCorrectionLevel: level,
      });
      const ours = byteSymbol(bytes, level)!;
      applyBestMask(ours);
      expect([library.version, library.maskPattern, sha256(library.modules.data)]).toEqual([
        version,
        mask,
        hash,
      ]);
      expect([ours.version, ours.maskPattern, sha256(ours.modules.data)]).toEqual([
        version,
        mask,
        hash,
      ]);
    },
  );
});
