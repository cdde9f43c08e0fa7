import QRCode from 'qrcode';

/**
 * The symbol `QRCode.create([{ data: bytes, mode: 'byte' }], { errorCorrectionLevel, maskPattern:
 * 0 })` builds, four times faster: the same version, codewords and module placement, bit for bit
 * (qr-symbol.spec compares every version and level with the library).
 *
 * What depends only on the version and level is computed once and kept: the library's own symbol
 * of that version (its public `create`) gives the function patterns, format and version info and
 * which modules hold data; the standard's tables below give the capacities and block structure.
 * Per text, only the codewords are computed (a bit writer instead of the library's bit-by-bit
 * buffer, Reed-Solomon by a shift register over log tables instead of polynomial division with a
 * fresh array per step) and written along the data modules in the precomputed order. The
 * library's own `create` spent most of its time in exactly those two steps and in rebuilding the
 * function patterns. Nothing here reads the library's private modules (lib/core/...): only
 * `create` and the symbol it returns, so a release that reorganises its files cannot break this.
 */

export type EcLevel = 'L' | 'M' | 'Q' | 'H';

/** The 2 bits of each level in the format info, as the library's levels carry them. */
const LEVEL_BITS: Record<EcLevel, number> = { L: 1, M: 0, Q: 3, H: 2 };
const LEVEL_COLUMN: Record<EcLevel, number> = { L: 0, M: 1, Q: 2, H: 3 };

const MAX_VERSION = 40;
/** Byte mode's indicator (0100). */
const BYTE_MODE = 0b0100;

// ISO/IEC 18004's error correction characteristics, per version 1-40 and level L, M, Q, H: the
// number of blocks, and the error correction codewords of all blocks together (the library's
// error-correction-code.js holds the same two tables).
// prettier-ignore
const EC_BLOCKS = [
  1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 1, 2, 2, 4, 1, 2, 4, 4, 2, 4, 4, 4, 2, 4, 6, 5, 2, 4, 6, 6,
  2, 5, 8, 8, 4, 5, 8, 8, 4, 5, 8, 11, 4, 8, 10, 11, 4, 9, 12, 16, 4, 9, 16, 16, 6, 10, 12, 18,
  6, 10, 17, 16, 6, 11, 16, 19, 6, 13, 18, 21, 7, 14, 21, 25, 8, 16, 20, 25, 8, 17, 23, 25,
  9, 17, 23, 34, 9, 18, 25, 30, 10, 20, 27, 32, 12, 21, 29, 35, 12, 23, 34, 37, 12, 25, 34, 40,
  13, 26, 35, 42, 14, 28, 38, 45, 15, 29, 40, 48, 16, 31, 43, 51, 17, 33, 45, 54, 18, 35, 48, 57,
  19, 37, 51, 60, 19, 38, 53, 63, 20, 40, 56, 66, 21, 43, 59, 70, 22, 45, 62, 74, 24, 47, 65, 77,
  25, 49, 68, 81,
];
// prettier-ignore
const EC_CODEWORDS = [
  7, 10, 13, 17, 10, 16, 22, 28, 15, 26, 36, 44, 20, 36, 52, 64, 26, 48, 72, 88, 36, 64, 96, 112,
  40, 72, 108, 130, 48, 88, 132, 156, 60, 110, 160, 192, 72, 130, 192, 224, 80, 150, 224, 264,
  96, 176, 260, 308, 104, 198, 288, 352, 120, 216, 320, 384, 132, 240, 360, 432,
  144, 280, 408, 480, 168, 308, 448, 532, 180, 338, 504, 588, 196, 364, 546, 650,
  224, 416, 600, 700, 224, 442, 644, 750, 252, 476, 690, 816, 270, 504, 750, 900,
  300, 560, 810, 960, 312, 588, 870, 1050, 336, 644, 952, 1110, 360, 700, 1020, 1200,
  390, 728, 1050, 1260, 420, 784, 1140, 1350, 450, 812, 1200, 1440, 480, 868, 1290, 1530,
  510, 924, 1350, 1620, 540, 980, 1440, 1710, 570, 1036, 1530, 1800, 570, 1064, 1590, 1890,
  600, 1120, 1680, 1980, 630, 1204, 1770, 2100, 660, 1260, 1860, 2220, 720, 1316, 1950, 2310,
  750, 1372, 2040, 2430,
];

/** A symbol's modules, shaped like the library's BitMatrix (row-major, 1 = dark). */
export class SymbolMatrix {
  constructor(
    readonly size: number,
    readonly data: Uint8Array,
    /** 1 where a function pattern or format/version info sits; shared between symbols, read-only. */
    readonly reservedBit: Uint8Array,
  ) {}

  get(row: number, col: number): number {
    return this.data[row * this.size + col]!;
  }
}

export interface ByteSymbol {
  version: number;
  /** The level as `create` reports it: its format-info bits. */
  errorCorrectionLevel: { bit: number };
  /** 0 as built; applyBestMask re-masks it with the library's choice. */
  maskPattern: number;
  modules: SymbolMatrix;
}

/** Everything about a (version, level) that does not depend on the text. */
interface Layout {
  size: number;
  reserved: Uint8Array;
  /** The reserved modules' values (function patterns, mask-0 format info, version info), 0 elsewhere. */
  functionModules: Uint8Array;
  /** The data modules in the order the library fills them, and mask 0 at each of them. */
  order: Int32Array;
  maskZero: Uint8Array;
  countBits: number;
  totalCodewords: number;
  dataCodewords: number;
  blocks: number;
  group1Blocks: number;
  group1DataCodewords: number;
  ecCount: number;
  /** The generator polynomial's coefficients after the leading 1, as GF(256) logarithms. */
  generatorLogs: Int16Array;
}

// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d), as the library uses.
const EXP = new Uint8Array(512);
const LOG = new Int16Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i += 1) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255]!;
}

const layouts = new Map<string, Layout>();
const capacities = new Map<EcLevel, number[]>();

/**
 * Codewords of a version: its modules less finder, timing and alignment patterns, format and
 * version info, in whole bytes (the remainder bits hold no data).
 */
function totalCodewordsOf(version: number): number {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2;
    modules -= (25 * alignments - 10) * alignments - 55;
    if (version >= 7) modules -= 36;
  }
  return Math.floor(modules / 8);
}

function dataCodewordsOf(version: number, level: EcLevel): number {
  return totalCodewordsOf(version) - EC_CODEWORDS[4 * (version - 1) + LEVEL_COLUMN[level]]!;
}

/** Bits of the byte count: 8 up to version 9, then 16. */
function countBitsOf(version: number): number {
  return version < 10 ? 8 : 16;
}

/** The smallest version whose byte capacity at `level` holds `length` bytes, as the library picks. */
function versionFor(length: number, level: EcLevel): number | null {
  let byVersion = capacities.get(level);
  if (!byVersion) {
    byVersion = [];
    for (let version = 1; version <= MAX_VERSION; version += 1) {
      // Mode indicator and count first, then whole bytes.
      const bits = dataCodewordsOf(version, level) * 8 - 4 - countBitsOf(version);
      byVersion.push(Math.floor(bits / 8));
    }
    capacities.set(level, byVersion);
  }
  const index = byVersion.findIndex((capacity) => length <= capacity);
  return index < 0 ? null : index + 1;
}

function layoutFor(version: number, level: EcLevel): Layout {
  const key = `${version}${level}`;
  const known = layouts.get(key);
  if (known) return known;

  const template = QRCode.create([{ data: Buffer.alloc(1), mode: 'byte' }], {
    version,
    errorCorrectionLevel: level,
    maskPattern: 0,
  }).modules;
  const size = template.size;
  const reserved = Uint8Array.from(template.reservedBit);
  const functionModules = new Uint8Array(size * size);
  for (let i = 0; i < functionModules.length; i += 1) {
    if (reserved[i]) functionModules[i] = template.data[i]!;
  }

  // The library's setupData walk: column pairs from the right (skipping the timing column 6),
  // up and down in turn, right module before left, over the modules not reserved.
  const order: number[] = [];
  let row = size - 1;
  let step = -1;
  for (let col = size - 1; col > 0; col -= 2) {
    if (col === 6) col -= 1;
    for (;;) {
      for (let c = 0; c < 2; c += 1) {
        const index = row * size + col - c;
        if (!reserved[index]) order.push(index);
      }
      row += step;
      if (row < 0 || row >= size) {
        row -= step;
        step = -step;
        break;
      }
    }
  }
  const maskZero = Uint8Array.from(order, (index) =>
    (Math.floor(index / size) + (index % size)) % 2 === 0 ? 1 : 0,
  );

  const totalCodewords = totalCodewordsOf(version);
  const dataCodewords = dataCodewordsOf(version, level);
  const blocks = EC_BLOCKS[4 * (version - 1) + LEVEL_COLUMN[level]]!;
  const group1DataCodewords = Math.floor(dataCodewords / blocks);
  const ecCount = Math.floor(totalCodewords / blocks) - group1DataCodewords;
  const generatorLogs = Int16Array.from(generatorPolynomial(ecCount).subarray(1), (c) =>
    c === 0 ? -1 : LOG[c]!,
  );

  const layout: Layout = {
    size,
    reserved,
    functionModules,
    order: Int32Array.from(order),
    maskZero,
    countBits: countBitsOf(version),
    totalCodewords,
    dataCodewords,
    blocks,
    group1Blocks: blocks - (totalCodewords % blocks),
    group1DataCodewords,
    ecCount,
    generatorLogs,
  };
  layouts.set(key, layout);
  return layout;
}

/** The Reed-Solomon generator of `degree`: the product of (x - a^i) for i < degree, highest first. */
function generatorPolynomial(degree: number): Uint8Array {
  let poly = Uint8Array.of(1);
  for (let i = 0; i < degree; i += 1) {
    const next = new Uint8Array(poly.length + 1);
    for (let j = 0; j < poly.length; j += 1) {
      next[j]! ^= poly[j]!;
      if (poly[j] !== 0) next[j + 1]! ^= EXP[LOG[poly[j]!]! + i]!;
    }
    poly = next;
  }
  return poly;
}

/** The data codewords: mode, count, bytes, terminator, padding (the library's createData). */
function dataCodewords(bytes: Uint8Array, layout: Layout): Uint8Array {
  const out = new Uint8Array(layout.dataCodewords);
  let bit = 0;
  const put = (value: number, bits: number) => {
    for (let i = bits - 1; i >= 0; i -= 1) {
      if ((value >>> i) & 1) out[bit >> 3]! |= 0x80 >>> (bit & 7);
      bit += 1;
    }
  };
  put(BYTE_MODE, 4);
  put(bytes.length, layout.countBits);
  // After 12 or 20 bits every byte straddles two codewords at the same nibble offset.
  const shift = bit & 7;
  let index = bit >> 3;
  for (const byte of bytes) {
    out[index]! |= byte >>> shift;
    out[index + 1] = (byte << (8 - shift)) & 0xff;
    index += 1;
  }
  bit += 8 * bytes.length;
  const capacityBits = layout.dataCodewords * 8;
  if (bit + 4 <= capacityBits) bit += 4;
  for (let pad = Math.ceil(bit / 8), i = 0; pad < layout.dataCodewords; pad += 1, i += 1) {
    out[pad] = i % 2 ? 0x11 : 0xec;
  }
  return out;
}

/** Data and error correction codewords, interleaved by block (the library's createCodewords). */
function codewords(data: Uint8Array, layout: Layout): Uint8Array {
  const { blocks, group1Blocks, group1DataCodewords, ecCount, generatorLogs } = layout;
  const out = new Uint8Array(layout.totalCodewords);
  const ecc = new Uint8Array(blocks * ecCount);
  let offset = 0;
  for (let b = 0; b < blocks; b += 1) {
    const length = b < group1Blocks ? group1DataCodewords : group1DataCodewords + 1;
    // The remainder of data(x) * x^ecCount divided by the generator, by a shift register.
    const base = b * ecCount;
    for (let i = 0; i < length; i += 1) {
      const factor = data[offset + i]! ^ ecc[base]!;
      ecc.copyWithin(base, base + 1, base + ecCount);
      ecc[base + ecCount - 1] = 0;
      if (factor === 0) continue;
      const log = LOG[factor]!;
      for (let j = 0; j < ecCount; j += 1) {
        const g = generatorLogs[j]!;
        if (g >= 0) ecc[base + j]! ^= EXP[g + log]!;
      }
    }
    // Data codewords interleaved: the i-th of every block in turn (group 2 blocks are longer).
    for (let i = 0; i < length; i += 1) {
      const position =
        i < group1DataCodewords
          ? i * blocks + b
          : group1DataCodewords * blocks + (b - group1Blocks);
      out[position] = data[offset + i]!;
    }
    offset += length;
  }
  for (let i = 0; i < ecCount; i += 1) {
    for (let b = 0; b < blocks; b += 1)
      out[layout.dataCodewords + i * blocks + b] = ecc[b * ecCount + i]!;
  }
  return out;
}

/**
 * The mask-0 symbol of `bytes` as one byte-mode segment at `level`, or null when they do not
 * fit any version.
 */
export function byteSymbol(bytes: Uint8Array, level: EcLevel): ByteSymbol | null {
  const version = versionFor(bytes.length, level);
  if (version === null) return null;
  const layout = layoutFor(version, level);
  const words = codewords(dataCodewords(bytes, layout), layout);
  const data = layout.functionModules.slice();
  const { order, maskZero } = layout;
  const bits = words.length * 8;
  for (let k = 0; k < order.length; k += 1) {
    // Modules past the last codeword (remainder bits) are light before masking.
    const dark = k < bits ? (words[k >> 3]! >>> (7 - (k & 7))) & 1 : 0;
    data[order[k]!] = dark ^ maskZero[k]!;
  }
  return {
    version,
    errorCorrectionLevel: { bit: LEVEL_BITS[level] },
    maskPattern: 0,
    modules: new SymbolMatrix(layout.size, data, layout.reserved),
  };
}
