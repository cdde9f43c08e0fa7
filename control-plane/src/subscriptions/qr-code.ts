import { deflateSync } from 'node:zlib';
import { SUBSCRIPTION_QR_SIZE } from '@scn/proto';
import QRCode from 'qrcode';
import { applyBestMask } from './qr-mask';

/**
 * Above this QR version (117 modules, 1.4 px per module at 180 px) a code is too dense to scan
 * from a screen: it is reported as too complex instead (spec 01 §8 'QR Code Too Complex'), as is
 * text that does not fit a QR code at all (2,953 bytes at level L).
 */
export const QR_MAX_VERSION = 25;
/** The quiet zone the standard asks for, in modules. */
const MARGIN_MODULES = 4;

export interface QrImage {
  qrCode: string | null;
  qrTooComplex: boolean;
}

/**
 * A QR code as a PNG data URL: error correction level L, 180 px (spec 01 §5, §9). The matrix
 * comes from `qrcode`; the PNG is written here as a 1-bit greyscale image, which takes a tenth
 * of the time of the library's generic RGBA encoder (a purchase draws one code per server).
 */
export function qrDataUrl(text: string, size = SUBSCRIPTION_QR_SIZE): QrImage {
  let qr: QRCode.QRCode;
  try {
    // One byte-mode segment: the library's search for an optimal mix of modes costs twice the
    // rest of the encoding and saves nothing on a link (same version).
    // Mask 0 fixed: the library's mask choice is 90% of its cost. applyBestMask makes the same
    // choice on bit-packed lines, so the symbol is still the library's default one, bit for bit.
    qr = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], {
      errorCorrectionLevel: 'L',
      maskPattern: 0,
    });
  } catch {
    return { qrCode: null, qrTooComplex: true };
  }
  if (qr.version > QR_MAX_VERSION) return { qrCode: null, qrTooComplex: true };
  applyBestMask(qr);
  const png = renderPng(qr.modules, size);
  return { qrCode: `data:image/png;base64,${png.toString('base64')}`, qrTooComplex: false };
}

/** The symbol as a 1-bit greyscale PNG `size` px wide (or one px per module if larger). */
export function renderPng(modules: QRCode.BitMatrix, size: number): Buffer {
  const count = modules.size;
  const total = count + 2 * MARGIN_MODULES;
  const width = Math.max(size, total);
  const scale = width / total;
  const rowBytes = Math.ceil(width / 8);
  // Which module each pixel column falls in (the same for every row).
  const columnModule = new Int16Array(width);
  for (let x = 0; x < width; x += 1) columnModule[x] = Math.floor(x / scale) - MARGIN_MODULES;

  const raw = Buffer.alloc((rowBytes + 1) * width, 0);
  const stride = rowBytes + 1;
  let previousModuleRow = Number.NaN;
  for (let y = 0; y < width; y += 1) {
    const rowStart = y * stride;
    const my = Math.floor(y / scale) - MARGIN_MODULES;
    // Pixel rows of one module row are identical: draw the first, copy it for the rest.
    if (my === previousModuleRow) {
      raw.copy(raw, rowStart, rowStart - stride, rowStart);
      continue;
    }
    previousModuleRow = my;
    raw[rowStart] = 0; // filter: none
    const inside = my >= 0 && my < count;
    for (let x = 0; x < width; x += 1) {
      const mx = columnModule[x]!;
      const dark = inside && mx >= 0 && mx < count && modules.get(my, mx) === 1;
      // 1-bit greyscale: 1 is white.
      if (!dark) raw[rowStart + 1 + (x >> 3)]! |= 0x80 >> (x & 7);
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
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
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
