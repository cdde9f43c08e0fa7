import { inflateSync } from 'node:zlib';
import { SUBSCRIPTION_QR_SIZE } from '@scn/proto';
import QRCode from 'qrcode';
import { QR_MAX_VERSION, qrDataUrl, renderPng } from './qr-code';

const LINK =
  'vless://3f2b8c1e-1234-4abc-8def-0123456789ab@node.example.net:443?encryption=none&security=reality&sni=www.example.com&fp=chrome&pbk=Xs7d8fK2lq9Zp0aQw3E4rT5yU6iO7pA8sD9fG0hJ1kL&sid=6ba85179&flow=xtls-rprx-vision&type=tcp#Node%201';

/** Reads our 1-bit greyscale PNG back: width and a dark(x, y) test. */
function readPng(dataUrl: string) {
  const png = Buffer.from(dataUrl.replace('data:image/png;base64,', ''), 'base64');
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const width = png.readUInt32BE(16);
  const idat: Buffer[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    if (type === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = Math.ceil(width / 8) + 1;
  // Undo the row filters the writer uses: none (0) and Up (2, each byte plus the one above).
  for (let y = 0; y < width; y += 1) {
    const filter = raw[y * rowBytes]!;
    expect([0, 2]).toContain(filter);
    if (filter !== 2) continue;
    for (let i = 1; i < rowBytes; i += 1) {
      const above = y > 0 ? raw[(y - 1) * rowBytes + i]! : 0;
      raw[y * rowBytes + i] = (raw[y * rowBytes + i]! + above) & 0xff;
    }
  }
  const dark = (x: number, y: number) =>
    ((raw[y * rowBytes + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0;
  return { width, dark };
}

describe('qrDataUrl', () => {
  it('should draw the level-L QR matrix of the text as a 180 px PNG', () => {
    const image = qrDataUrl(LINK);
    expect(image.qrTooComplex).toBe(false);
    const { width, dark } = readPng(image.qrCode!);
    expect(width).toBe(180);
    const matrix = QRCode.create([{ data: Buffer.from(LINK), mode: 'byte' }], {
      errorCorrectionLevel: 'L',
    }).modules;
    const total = matrix.size + 8;
    const scale = width / total;
    // The centre pixel of every module has the module's colour; the quiet zone is light.
    for (let row = 0; row < matrix.size; row += 1) {
      for (let col = 0; col < matrix.size; col += 1) {
        const x = Math.floor((col + 4 + 0.5) * scale);
        const y = Math.floor((row + 4 + 0.5) * scale);
        expect(dark(x, y)).toBe(matrix.get(row, col) === 1);
      }
    }
    expect(dark(1, 1)).toBe(false);
  });

  it('should colour every pixel by the module it falls in, at any size', () => {
    const matrix = QRCode.create([{ data: Buffer.from(LINK), mode: 'byte' }], {
      errorCorrectionLevel: 'L',
    }).modules;
    const total = matrix.size + 8;
    for (const size of [180, 181, 200, 333, total, 10]) {
      const png = renderPng(matrix, size);
      const { width, dark } = readPng(`data:image/png;base64,${png.toString('base64')}`);
      expect(width).toBe(Math.max(size, total));
      const scale = width / total;
      const wrong: string[] = [];
      for (let y = 0; y < width; y += 1) {
        for (let x = 0; x < width; x += 1) {
          const [row, col] = [Math.floor(y / scale) - 4, Math.floor(x / scale) - 4];
          const inside = row >= 0 && row < matrix.size && col >= 0 && col < matrix.size;
          if (dark(x, y) !== (inside && matrix.get(row, col) === 1))
            wrong.push(`${size}:${x},${y}`);
        }
      }
      expect(wrong.slice(0, 5)).toEqual([]);
    }
  });

  it('should draw the PNG of the library default matrix when given 60 links of versions 1 to 25', () => {
    // A seeded walk over lengths (mulberry32), so every run sees the same links.
    let state = 99;
    const random = () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const versions = new Set<number>();
    const differences: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      let link = `${LINK}&n=${i}`;
      const length = 10 + Math.floor(random() * 1240);
      while (link.length < length) link += `&spx=%2F${Math.floor(random() * 2 ** 40).toString(36)}`;
      link = link.slice(0, length);
      const library = QRCode.create([{ data: Buffer.from(link), mode: 'byte' }], {
        errorCorrectionLevel: 'L',
      });
      versions.add(library.version);
      const expected = `data:image/png;base64,${renderPng(library.modules, SUBSCRIPTION_QR_SIZE).toString('base64')}`;
      if (qrDataUrl(link).qrCode !== expected) differences.push(link);
    }
    expect(differences).toEqual([]);
    expect(Math.min(...versions)).toBeLessThanOrEqual(2);
    expect(Math.max(...versions)).toBe(QR_MAX_VERSION);
  });

  it('should report text that does not fit a scannable code as too complex', () => {
    expect(qrDataUrl('x'.repeat(3000))).toEqual({ qrCode: null, qrTooComplex: true });
    const tooDense = 'y'.repeat(1400);
    expect(QRCode.create(tooDense, { errorCorrectionLevel: 'L' }).version).toBeGreaterThan(
      QR_MAX_VERSION,
    );
    expect(qrDataUrl(tooDense)).toEqual({ qrCode: null, qrTooComplex: true });
  });
});
