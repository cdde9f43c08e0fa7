/** The content codings the portal's build writes beside a file (portal/scripts/compress.mjs). */
export type PrecompressedEncoding = 'br' | 'gzip';
export type ContentEncoding = PrecompressedEncoding | 'identity';

/** The file name suffix of each precompressed coding. */
export const ENCODING_SUFFIX: Readonly<Record<PrecompressedEncoding, string>> = {
  br: '.br',
  gzip: '.gz',
};

/**
 * Identity unnamed is acceptable (RFC 9110 §12.5.3) but the last choice: "br;q=0.5" asks for
 * brotli at a lower preference, not for the uncompressed body before it.
 */
const IMPLICIT_IDENTITY = Number.MIN_VALUE;

/** Ties between equal q-values go to the smaller coding: brotli, then gzip, then none. */
const PREFERENCE: readonly ContentEncoding[] = ['br', 'gzip', 'identity'];

/**
 * The coding to answer with, of those `available` (identity always is), for an `Accept-Encoding`
 * header (RFC 9110 §12.5.3): the highest q-value wins, q=0 refuses a coding, `*` stands for every
 * coding the header does not name, identity included, and identity is acceptable, last, unless
 * refused by name or by `*`.
 * No header at all means identity. When the client refuses everything, identity is sent anyway,
 * as the RFC lets an origin do rather than answer 406.
 */
export function chooseEncoding(
  header: string | undefined,
  available: readonly PrecompressedEncoding[],
): ContentEncoding {
  if (!header) return 'identity';
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName?.trim().toLowerCase();
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.split('=').map((piece) => piece.trim().toLowerCase());
      if (key === 'q')
        q = value !== undefined && /^[01](\.\d{0,3})?$/.test(value) ? Number(value) : 0;
    }
    // "x-gzip" is gzip (RFC 9110 §8.4.1.3).
    const key = name === 'x-gzip' ? 'gzip' : name;
    weights.set(key, Math.max(q, weights.get(key) ?? 0));
  }
  const star = weights.get('*');
  const weightOf = (encoding: ContentEncoding): number =>
    weights.get(encoding) ?? star ?? (encoding === 'identity' ? IMPLICIT_IDENTITY : 0);
  let best: ContentEncoding = 'identity';
  let bestWeight = -1;
  for (const encoding of PREFERENCE) {
    if (encoding !== 'identity' && !available.includes(encoding)) continue;
    const weight = weightOf(encoding);
    if (weight > 0 && weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}
