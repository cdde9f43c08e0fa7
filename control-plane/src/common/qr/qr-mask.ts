/** A symbol as the library's `QRCode.create` or our `byteSymbol` gives it. */
export interface MaskableSymbol {
  modules: { size: number; data: Uint8Array; reservedBit: Uint8Array };
  errorCorrectionLevel: { bit: number };
  maskPattern: number | undefined;
}

/**
 * The mask choice of `qrcode` (1.5.x `getBestMask`), on bit-packed lines.
 *
 * The library scores each of the 8 masks by masking the matrix in place and reading it back one
 * `BitMatrix.get` call per module and per rule: 90% of the cost of `QRCode.create`. Here the
 * symbol is created with `maskPattern: 0` and re-masked once the best mask is known. The scores
 * copy the library's code, not ISO 18004, since the output must be the library's own, bit for
 * bit: N1 counts runs of 5+ per row and column, N2 counts 2x2 blocks of one colour, N3 counts the
 * exact 11-module windows 10111010000 and 00001011101 inside a row or column (no light border
 * outside the symbol), N4 rounds the dark share up to the next 5% step.
 *
 * Each row and each column is packed into 32-bit words, bit j of a line at bit j % 32 of word
 * j / 32, so one word scores 32 modules at once with shifts and masks. Module colours are close
 * to random, which is what makes the per-module branches of a plain loop slow.
 */

const MASK_COUNT = 8;
const N2 = 3;
const N3 = 40;
const N4 = 10;

/** The (15, 5) BCH generator, and the XOR that keeps format info from being all zero. */
const G15 = 0b101_0011_0111;
const G15_MASK = 0b101_0100_0001_0010;

/** What depends on the symbol size only. */
interface Geometry {
  size: number;
  /** 32-bit words per line. */
  words: number;
  /** Per mask, `2 * size` lines (rows, then columns): where the mask flips a module. */
  maskLines: Int32Array[];
  /** Per word of a line: the positions from 1, 4 and 10 on, within the line. */
  from1: Int32Array;
  from4: Int32Array;
  from10: Int32Array;
  /** Row and column of the two cells of each format bit, as `setupFormatInfo` places them. */
  formatCells: Int32Array;
}

const geometries = new Map<number, Geometry>();

/**
 * Re-masks a symbol made with `maskPattern: 0` with the mask `QRCode.create` picks when none is
 * given, and writes that mask's format info: the result is the library's default symbol.
 */
export function applyBestMask(qr: MaskableSymbol): number {
  if (qr.maskPattern !== 0) throw new Error('applyBestMask needs a symbol made with mask 0');
  const { size, data, reservedBit } = qr.modules;
  const geometry = geometryFor(size);
  const { words, maskLines, formatCells } = geometry;
  const lineCount = 2 * size;

  // The modules a mask may flip (not reserved for function patterns), and the unmasked modules.
  const free = pack(reservedBit, 1, size, words);
  const plain = pack(data, 0, size, words);
  const mask0 = maskLines[0]!;
  for (let i = 0; i < plain.length; i += 1) plain[i] = plain[i]! ^ (mask0[i]! & free[i]!);

  let candidate = new Int32Array(lineCount * words);
  let best = new Int32Array(lineCount * words);
  let bestMask = 0;
  let bestPenalty = Number.POSITIVE_INFINITY;
  for (let mask = 0; mask < MASK_COUNT; mask += 1) {
    const flips = maskLines[mask]!;
    for (let i = 0; i < candidate.length; i += 1) {
      candidate[i] = plain[i]! ^ (flips[i]! & free[i]!);
    }
    const format = formatBits(qr.errorCorrectionLevel.bit, mask);
    for (let cell = 0; cell < 30; cell += 1) {
      const value = (format >> (cell >> 1)) & 1;
      setModule(candidate, size, words, formatCells[2 * cell]!, formatCells[2 * cell + 1]!, value);
    }
    const score = penalty(candidate, geometry, bestPenalty);
    // Strictly lower: on a tie the lower mask wins, as in the library.
    if (score < bestPenalty) {
      bestPenalty = score;
      bestMask = mask;
      [best, candidate] = [candidate, best];
    }
  }

  for (let row = 0; row < size; row += 1) {
    for (let col = 0; col < size; col += 1) {
      data[row * size + col] = (best[row * words + (col >> 5)]! >>> (col & 31)) & 1;
    }
  }
  qr.maskPattern = bestMask;
  return qr.maskPattern;
}

/** 0/1 modules (XOR `flip`) as `2 * size` lines of `words` words: the rows, then the columns. */
function pack(modules: Uint8Array, flip: number, size: number, words: number): Int32Array {
  const lines = new Int32Array(2 * size * words);
  for (let line = 0; line < size; line += 1) {
    for (let w = 0; w < words; w += 1) {
      const first = 32 * w;
      const end = Math.min(32, size - first);
      // Row `line` runs along the array, column `line` down it.
      let row = 0;
      let col = 0;
      for (let b = 0; b < end; b += 1) {
        row |= (modules[line * size + first + b]! ^ flip) << b;
        col |= (modules[(first + b) * size + line]! ^ flip) << b;
      }
      lines[line * words + w] = row;
      lines[(size + line) * words + w] = col;
    }
  }
  return lines;
}

/** Sets one module in both its row and its column. */
function setModule(
  lines: Int32Array,
  size: number,
  words: number,
  row: number,
  col: number,
  value: number,
): void {
  const rowWord = row * words + (col >> 5);
  const colWord = (size + col) * words + (row >> 5);
  lines[rowWord] = (lines[rowWord]! & ~(1 << (col & 31))) | (value << (col & 31));
  lines[colWord] = (lines[colWord]! & ~(1 << (row & 31))) | (value << (row & 31));
}

/**
 * N1 + N2 + N3 + N4 of `getBestMask`, or any value at least `bound` once the partial sum reaches
 * it: every rule adds a non-negative amount, and a score equal to the best so far loses anyway.
 */
function penalty(lines: Int32Array, geometry: Geometry, bound: number): number {
  const { size, words, from1, from4, from10 } = geometry;
  let runs = 0;
  let blocks = 0;
  let finders = 0;
  let dark = 0;

  // N2 and N4 over the rows.
  for (let row = 0; row < size; row += 1) {
    const start = row * words;
    let previous = 0;
    let previousSame = 0;
    for (let w = 0; w < words; w += 1) {
      const x = lines[start + w]!;
      dark += popcount(x);
      if (row === size - 1) continue;
      // A 2x2 block of one colour ends at column j when rows row and row + 1 agree at j - 1 and j,
      // and row agrees with itself from j - 1 to j.
      const same = ~(x ^ lines[start + words + w]!);
      const sameBefore = (same << 1) | (previousSame >>> 31);
      const flat = ~(x ^ ((x << 1) | (previous >>> 31)));
      blocks += popcount(same & sameBefore & flat & from1[w]!);
      previous = x;
      previousSame = same;
    }
  }

  // N1 and N3 over every row and column.
  for (let line = 0; line < 2 * size; line += 1) {
    const start = line * words;
    let previous = 0;
    let previousStretch = 0;
    for (let w = 0; w < words; w += 1) {
      const x = lines[start + w]!;
      // sK holds at bit j the module j - K of the line.
      const s1 = (x << 1) | (previous >>> 31);
      const s2 = (x << 2) | (previous >>> 30);
      const s3 = (x << 3) | (previous >>> 29);
      const s4 = (x << 4) | (previous >>> 28);
      const s5 = (x << 5) | (previous >>> 27);
      const s6 = (x << 6) | (previous >>> 26);
      const s7 = (x << 7) | (previous >>> 25);
      const s8 = (x << 8) | (previous >>> 24);
      const s9 = (x << 9) | (previous >>> 23);
      const s10 = (x << 10) | (previous >>> 22);
      // N1, 3 + (run - 5) per run of 5 or more, is 1 per module that ends a uniform stretch of
      // 5, plus 2 for the first such module of a run.
      const stretch = ~((x ^ s1) | (x ^ s2) | (x ^ s3) | (x ^ s4)) & from4[w]!;
      const firsts = stretch & ~((stretch << 1) | (previousStretch >>> 31));
      runs += popcount(stretch) + 2 * popcount(firsts);
      // N3: the window of modules j - 10 .. j reads 10111010000 or 00001011101.
      const patternA = s4 & s6 & s7 & s8 & s10 & ~(x | s1 | s2 | s3 | s5 | s9);
      const patternB = x & s2 & s3 & s4 & s6 & ~(s1 | s5 | s7 | s8 | s9 | s10);
      finders += popcount((patternA | patternB) & from10[w]!);
      previous = x;
      previousStretch = stretch;
    }
    if (runs + blocks * N2 + finders * N3 >= bound) return bound;
  }

  const modules = size * size;
  // The library's own float expression, so the 5% steps round the same way.
  const k = Math.abs(Math.ceil((dark * 100) / modules / 5) - 10);
  return runs + blocks * N2 + finders * N3 + k * N4;
}

function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** `FormatInfo.getEncodedBits`: 2 level bits and 3 mask bits, then 10 BCH bits. */
export function formatBits(levelBit: number, mask: number): number {
  const value = (levelBit << 3) | mask;
  let remainder = value << 10;
  for (let bit = 14; bit >= 10; bit -= 1) {
    if ((remainder >> bit) & 1) remainder ^= G15 << (bit - 10);
  }
  return ((value << 10) | remainder) ^ G15_MASK;
}

function geometryFor(size: number): Geometry {
  const cached = geometries.get(size);
  if (cached) return cached;
  const words = Math.ceil(size / 32);

  const maskLines: Int32Array[] = [];
  for (let mask = 0; mask < MASK_COUNT; mask += 1) {
    const lines = new Int32Array(2 * size * words);
    for (let row = 0; row < size; row += 1) {
      for (let col = 0; col < size; col += 1) {
        if (maskAt(mask, row, col)) setModule(lines, size, words, row, col, 1);
      }
    }
    maskLines.push(lines);
  }

  const from = (first: number) => {
    const bits = new Int32Array(words);
    for (let j = first; j < size; j += 1) bits[j >> 5]! |= 1 << (j & 31);
    return bits;
  };

  const formatCells = new Int32Array(60);
  for (let i = 0; i < 15; i += 1) {
    formatCells[4 * i] = i < 6 ? i : i < 8 ? i + 1 : size - 15 + i;
    formatCells[4 * i + 1] = 8;
    formatCells[4 * i + 2] = 8;
    formatCells[4 * i + 3] = i < 8 ? size - i - 1 : i < 9 ? 15 - i : 15 - i - 1;
  }

  const geometry = {
    size,
    words,
    maskLines,
    from1: from(1),
    from4: from(4),
    from10: from(10),
    formatCells,
  };
  geometries.set(size, geometry);
  return geometry;
}

/** `getMaskAt` of mask-pattern.js: i is the row, j the column. */
function maskAt(mask: number, i: number, j: number): boolean {
  switch (mask) {
    case 0:
      return (i + j) % 2 === 0;
    case 1:
      return i % 2 === 0;
    case 2:
      return j % 3 === 0;
    case 3:
      return (i + j) % 3 === 0;
    case 4:
      return (Math.floor(i / 2) + Math.floor(j / 3)) % 2 === 0;
    case 5:
      return ((i * j) % 2) + ((i * j) % 3) === 0;
    case 6:
      return (((i * j) % 2) + ((i * j) % 3)) % 2 === 0;
    default:
      return (((i * j) % 3) + ((i + j) % 2)) % 2 === 0;
  }
}
