import { type RangeBuilder, ipv4Builder, ipv6Builder } from './range-table';

/**
 * The ip-location-db "num" CSV files: `start,end,...` with decimal addresses, ascending. Parsed
 * from the file's bytes in slices, yielding to the event loop between them so that loading at
 * start never holds requests up for long.
 */

/** Lines parsed between two yields to the event loop (a few milliseconds' work). */
const SLICE_LINES = 4_000;

const COMMA = 0x2c;
const NEWLINE = 0x0a;

/** The value a row's remaining fields stand for (its text after `start,end,`). */
export type RowValue = (rest: string) => number;

function lineCount(data: Buffer): number {
  let count = 0;
  for (let at = data.indexOf(NEWLINE); at !== -1; at = data.indexOf(NEWLINE, at + 1)) count++;
  return count + 1;
}

function ipv4Field(data: Buffer, from: number, to: number): number {
  if (to <= from || to - from > 10) return NaN;
  let n = 0;
  for (let i = from; i < to; i++) {
    const digit = data[i]! - 0x30;
    if (digit < 0 || digit > 9) return NaN;
    n = n * 10 + digit;
  }
  return n <= 0xffffffff ? n : NaN;
}

const UPPER_64 = 64n;
const MAX_IPV6 = (1n << 128n) - 1n;

/** The upper 64 bits of a decimal IPv6 address, or null when the field is not one. */
function ipv6Field(data: Buffer, from: number, to: number): bigint | null {
  const text = data.toString('latin1', from, to);
  if (!/^\d{1,39}$/.test(text)) return null;
  const n = BigInt(text);
  return n <= MAX_IPV6 ? n >> UPPER_64 : null;
}

const nextSlice = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Calls `row` with each non-empty line's field bounds; errors name the file and line. */
async function eachRow(
  data: Buffer,
  name: string,
  row: (at: number, first: number, second: number, rest: string) => void,
): Promise<void> {
  let line = 0;
  let at = 0;
  while (at < data.length) {
    let end = data.indexOf(NEWLINE, at);
    if (end === -1) end = data.length;
    line++;
    const lineEnd = end > at && data[end - 1] === 0x0d ? end - 1 : end;
    if (lineEnd > at) {
      const first = data.indexOf(COMMA, at);
      const second = first === -1 || first > lineEnd ? -1 : data.indexOf(COMMA, first + 1);
      if (second === -1 || second > lineEnd) throw new Error(`${name}:${line}: not start,end,...`);
      try {
        row(at, first, second, data.toString('utf8', second + 1, lineEnd));
      } catch (error) {
        throw new Error(`${name}:${line}: ${(error as Error).message}`);
      }
    }
    at = end + 1;
    if (line % SLICE_LINES === 0) await nextSlice();
  }
}

function rowValue(value: RowValue, rest: string): number {
  const v = value(rest);
  if (v < 0) throw new Error(`unreadable value ${JSON.stringify(rest)}`);
  return v;
}

/**
 * The ranges of one IPv4 file. `name` names the file in errors (with the line); a row out of
 * order or malformed rejects, since a half-read database would place addresses wrongly.
 */
export async function readIpv4Ranges(
  data: Buffer,
  value: RowValue,
  name: string,
): Promise<RangeBuilder<number>> {
  const builder = ipv4Builder(lineCount(data));
  await eachRow(data, name, (at, first, second, rest) => {
    const start = ipv4Field(data, at, first);
    const last = ipv4Field(data, first + 1, second);
    if (Number.isNaN(start) || Number.isNaN(last)) throw new Error('not IPv4 numbers');
    builder.push(start, last, rowValue(value, rest));
  });
  return builder;
}

/** The ranges of one IPv6 file, keyed by their upper 64 bits (as readIpv4Ranges). */
export async function readIpv6Ranges(
  data: Buffer,
  value: RowValue,
  name: string,
): Promise<RangeBuilder<bigint>> {
  const builder = ipv6Builder(lineCount(data));
  await eachRow(data, name, (at, first, second, rest) => {
    const start = ipv6Field(data, at, first);
    const last = ipv6Field(data, first + 1, second);
    if (start === null || last === null) throw new Error('not IPv6 numbers');
    builder.push(start, last, rowValue(value, rest));
  });
  return builder;
}

/** A country code as a row value: its two letters in 16 bits (0 is no country). */
export function countryValue(rest: string): number {
  const code = rest.trim().replace(/^"(.*)"$/, '$1');
  if (!/^[A-Z]{2}$/.test(code)) return -1;
  return (code.charCodeAt(0) << 8) | code.charCodeAt(1);
}

export function countryCode(value: number): string {
  return String.fromCharCode(value >> 8, value & 0xff);
}

/**
 * The networks of the ASN files, deduplicated: each distinct `ASN,organisation` text once, and
 * each row's value its index here. The names are one string table, not one string a row.
 */
export class AsnTable {
  private readonly index = new Map<string, number>();
  readonly numbers: number[] = [];
  readonly names: Array<string | null> = [];

  /** `13335,"Cloudflare, Inc."` or `38803,Gtelecom Pty Ltd` -> its index (-1: unreadable). */
  readonly value: RowValue = (rest) => {
    // Keyed by the row's text: most rows repeat a network seen before, and need no parsing.
    const known = this.index.get(rest);
    if (known !== undefined) return known;
    const comma = rest.indexOf(',');
    const asnText = comma === -1 ? rest : rest.slice(0, comma);
    if (!/^\d{1,10}$/.test(asnText)) return -1;
    const asn = Number(asnText);
    if (asn > 0xffffffff) return -1;
    let name = comma === -1 ? '' : rest.slice(comma + 1).trim();
    if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) {
      name = name.slice(1, -1).replace(/""/g, '"');
    }
    const found = this.numbers.length;
    this.index.set(rest, found);
    this.numbers.push(asn);
    this.names.push(name === '' ? null : name);
    return found;
  };
}
