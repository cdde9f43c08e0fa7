import { deflateSync } from 'node:zlib';
import { SUBSCRIPTION_QR_SIZE } from '@scn/proto';
import { applyBestMask } from './qr-mask';
import { byteSymbol } from './qr-symbol';

/**
 * Above this QR version (117 modules, 1.4 px per module at 180 px) a code is too dense to scan
 * from a screen: it is reported as too complex instead (docs/product/messages.md#market-and-account-messages 'QR Code Too Complex'), as is
 * text that does not fit a QR code at all (2,953 bytes at level L).
 */
export const QR_MAX_VERSION = 25;
/**
 * zlib level 3: a quarter less CPU than the default (6) for 1-2% more bytes on these images
 * (18.6 against 24.6 us and 907 against 893 bytes for a typical link); deflate is the largest
 * single cost of a QR code.
 */
const DEFLATE_LEVEL = 3;
/** The quiet zone the standard asks for, in modules. */
const MARGIN_MODULES = 4;

export interface QrImage {
  qrCode: string | null;
  qrTooComplex: boolean;
}

/**
 * A QR code as a PNG data URL: error correction level L, 180 px (docs/product/input-rules.md#market-and-account-input, docs/product/constants.md#market-prices-and-limits). The matrix is
 * the one `qrcode` draws (built by qr-symbol.ts and qr-mask.ts); the PNG is written here as a
 * 1-bit greyscale image, which takes a tenth of the time of the library's generic RGBA encoder
 * (a purchase draws one code per server).
 */
export function qrDataUrl(text: string, size = SUBSCRIPTION_QR_SIZE): QrImage {
  // One byte-mode segment: the library's search for an optimal mix of modes costs twice the rest
  // of the encoding and saves nothing on a link (same version). byteSymbol builds the library's
  // mask-0 symbol; applyBestMask makes the library's mask choice on bit-packed lines, so the
  // result is the library's default symbol, bit for bit.
  const symbol = byteSymbol(Buffer.from(text, 'utf8'), 'L');
  if (!symbol || symbol.version > QR_MAX_VERSION) return { qrCode: null, qrTooComplex: true };
  applyBestMask(symbol);
  const png = renderPng(symbol.modules, size);
  return { qrCode: `data:image/png;base64,${png.toString('base64')}`, qrTooComplex: false };
}

/** The symbol as a 1-bit greyscale PNG `size` px wide (or one px per module if larger). */
export function renderPng(
  modules: { size: number; get(row: number, col: number): number },
  size: number,
): Buffer {
  const count = modules.size;
  const total = count + 2 * MARGIN_MODULES;
  const width = Math.max(size, total);
  const scale = width / total;
  const { stride, lightRow, darkBytes, darkMasks, firstPair } = pixelLayout(count, width);

  const raw = Buffer.alloc(stride * width, 0);
  let previousModuleRow = Number.NaN;
  for (let y = 0; y < width; y += 1) {
    const rowStart = y * stride;
    const my = Math.floor(y / scale) - MARGIN_MODULES;
    // Pixel rows of one module row are identical: draw the first; the rest are PNG's "Up"
    // filter (2) with zero differences, which deflate compresses smaller and faster.
    if (my === previousModuleRow) {
      raw[rowStart] = 2;
      continue;
    }
    previousModuleRow = my;
    // Filter byte 0 (none), then every pixel light (1-bit greyscale: 1 is white) ...
    raw.set(lightRow, rowStart);
    if (my < 0 || my >= count) continue;
    // ... and each dark module clears its pixels: one or two byte masks per module.
    for (let mx = 0; mx < count; mx += 1) {
      if (modules.get(my, mx) !== 1) continue;
      for (let pair = firstPair[mx]!; pair < firstPair[mx + 1]!; pair += 1) {
        raw[rowStart + darkBytes[pair]!]! &= darkMasks[pair]!;
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: DEFLATE_LEVEL })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Where each module column's pixels sit in a PNG row, for one symbol size and image width. */
interface PixelLayout {
  stride: number;
  /** A row of light pixels, its filter byte first. */
  lightRow: Buffer;
  /** Per module column, from firstPair[mx] to firstPair[mx + 1]: a byte of the row and the AND
   * mask that darkens the column's pixels in it. */
  darkBytes: Int32Array;
  darkMasks: Uint8Array;
  firstPair: Int32Array;
}

const pixelLayouts = new Map<string, PixelLayout>();

function pixelLayout(count: number, width: number): PixelLayout {
  const key = `${count}:${width}`;
  const known = pixelLayouts.get(key);
  if (known) return known;
  const scale = width / (count + 2 * MARGIN_MODULES);
  const stride = Math.ceil(width / 8) + 1;
  const lightRow = Buffer.alloc(stride, 0);
  for (let x = 0; x < width; x += 1) lightRow[1 + (x >> 3)]! |= 0x80 >> (x & 7);
  // The pixels of module column mx: x with floor(x / scale) - MARGIN = mx.
  const bytes: number[] = [];
  const masks: number[] = [];
  const firstPair = new Int32Array(count + 1);
  let x = 0;
  for (let mx = 0; mx < count; mx += 1) {
    firstPair[mx] = bytes.length;
    while (Math.floor(x / scale) - MARGIN_MODULES < mx) x += 1;
    for (; x < width && Math.floor(x / scale) - MARGIN_MODULES === mx; x += 1) {
      const byte = 1 + (x >> 3);
      if (bytes[bytes.length - 1] !== byte || bytes.length === firstPair[mx]) {
        bytes.push(byte);
        masks.push(0xff);
      }
      masks[masks.length - 1]! &= ~(0x80 >> (x & 7)) & 0xff;
    }
  }
  firstPair[count] = bytes.length;
  const layout = {
    stride,
    lightRow,
    darkBytes: Int32Array.from(bytes),
    darkMasks: Uint8Array.from(masks),
    firstPair,
  };
  pixelLayouts.set(key, layout);
  return layout;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
