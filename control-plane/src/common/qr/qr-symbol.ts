import QRCode from 'qrcode';
import * as ECCode from 'qrcode/lib/core/error-correction-code';
import * as ECLevel from 'qrcode/lib/core/error-correction-level';
import * as Mode from 'qrcode/lib/core/mode';
import * as Polynomial from 'qrcode/lib/core/polynomial';
import * as Utils from 'qrcode/lib/core/utils';
import * as Version from 'qrcode/lib/core/version';

/**
 * The symbol `QRCode.create([{ data: bytes, mode: 'byte' }], { errorCorrectionLevel, maskPattern:
 * 0 })` builds, four times faster: the same version, codewords and module placement, bit for bit
 * (qr-symbol.spec compares every version and level with the library).
 *
 * What depends only on the version and level is taken from the library once and kept: its own
 * symbol of that version gives the function patterns, format and version info and which modules
 * hold data; its tables give the capacities and block structure. Per text, only the codewords
 * are computed (a bit writer instead of the library's bit-by-bit buffer, Reed-Solomon by a shift
 * register over log tables instead of polynomial division with a fresh array per step) and
 * written along the data modules in the precomputed order. The library's own `create` spent
 * most of its time in exactly those two steps and in rebuilding the function patterns.
 */

export type EcLevel = 'L' | 'M' | 'Q' | 'H';

const LEVELS: Record<EcLevel, ECLevel.ErrorCorrectionLevel> = {
  L: ECLevel.L,
  M: ECLevel.M,
  Q: ECLevel.Q,
  H: ECLevel.H,
};

const MAX_VERSION = 40;

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
  errorCorrectionLevel: ECLevel.ErrorCorrectionLevel;
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

/** The smallest version whose byte capacity at `level` holds `length` bytes, as the library picks. */
function versionFor(length: number, level: EcLevel): number | null {
  let byVersion = capacities.get(level);
  if (!byVersion) {
    byVersion = [];
    for (let version = 1; version <= MAX_VERSION; version += 1) {
      byVersion.push(Version.getCapacity(version, LEVELS[level], Mode.BYTE));
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

  const ecl = LEVELS[level];
  const totalCodewords = Utils.getSymbolTotalCodewords(version);
  const dataCodewords = totalCodewords - ECCode.getTotalCodewordsCount(version, ecl);
  const blocks = ECCode.getBlocksCount(version, ecl);
  const group1DataCodewords = Math.floor(dataCodewords / blocks);
  const ecCount = Math.floor(totalCodewords / blocks) - group1DataCodewords;
  const generator = Polynomial.generateECPolynomial(ecCount);
  const generatorLogs = Int16Array.from(generator.subarray(1), (c) => (c === 0 ? -1 : LOG[c]!));

  const layout: Layout = {
    size,
    reserved,
    functionModules,
    order: Int32Array.from(order),
    maskZero,
    countBits: Mode.getCharCountIndicator(Mode.BYTE, version),
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
  put(Mode.BYTE.bit, 4);
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
    errorCorrectionLevel: LEVELS[level],
    maskPattern: 0,
    modules: new SymbolMatrix(layout.size, data, layout.reserved),
  };
}
