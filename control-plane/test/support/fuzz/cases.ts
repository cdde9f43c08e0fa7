import { gzipSync } from 'node:zlib';
import {
  ALWAYS_QUERY_VALUES,
  ALWAYS_STRINGS,
  HOSTILE_IDEMPOTENCY_KEYS,
  HOSTILE_NUMBERS,
  HOSTILE_QUERY_VALUES,
  HOSTILE_SEGMENTS,
  HOSTILE_STRINGS,
  WRONG_TYPES,
} from './hostile-values';
import { fieldsOf, type KnownValues, type Operation, validValue, withField } from './openapi';
import type { SeededRandom } from './random';

export type Identity = 'client' | 'operator' | 'anonymous';

/** How a request authenticates: the identity's session (cookie or bearer), none, or the headers given. */
export type Auth = 'cookie' | 'bearer' | 'none' | 'raw';

/** One request of the fuzz run. */
export interface FuzzCase {
  label: string;
  identity: Identity;
  method: Operation['method'];
  /** Path and query as they go on the wire (already percent-encoded). */
  target: string;
  headers: Record<string, string>;
  body: Buffer | null;
  auth: Auth;
}

/** What the fixtures know for one identity: its path values (encoded) and body values. */
export interface IdentityValues {
  identity: Identity;
  segments: Record<string, string>;
  /** Path values of another account (an owner check must refuse them). */
  foreignSegments: Record<string, string>;
  body: KnownValues;
  query: Record<string, string>;
}

interface Shape {
  segments: Record<string, string>;
  query: string;
  body: Buffer | null;
  headers: Record<string, string>;
  auth: Auth;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

/**
 * The requests for one operation as one identity: a valid one, then each part made hostile in
 * turn (path, query, body fields, the body as a whole, headers). `size` scales the samples.
 */
export function casesFor(
  operation: Operation,
  values: IdentityValues,
  random: SeededRandom,
  size: number,
): FuzzCase[] {
  const n = (count: number) => Math.max(1, Math.round(count * size));
  const baseBody =
    operation.body !== null ? validValue(operation.body, '', values.body) : undefined;
  const base: Shape = {
    segments: Object.fromEntries(operation.pathParams.map((p) => [p, values.segments[p] ?? 'x'])),
    query: operation.queryParams
      .filter((q) => values.query[q.name] !== undefined)
      .map((q) => `${q.name}=${values.query[q.name]}`)
      .join('&'),
    body: baseBody === undefined ? null : json(baseBody),
    headers: {
      ...(baseBody === undefined ? {} : { 'content-type': 'application/json' }),
      ...(operation.headerParams.includes('idempotency-key')
        ? { 'idempotency-key': `fuzz-${random.int(1e9)}` }
        : {}),
    },
    auth: values.identity === 'anonymous' ? 'none' : random.pick(['cookie', 'bearer'] as const),
  };
  const cases: FuzzCase[] = [];
  const add = (label: string, change: Partial<Shape>) => {
    const shape = { ...base, ...change, headers: { ...base.headers, ...change.headers } };
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => shape.segments[name]!);
    cases.push({
      label: `${operation.method.toUpperCase()} ${operation.path} as ${values.identity}: ${label}`,
      identity: values.identity,
      method: operation.method,
      target: shape.query ? `${path}?${shape.query}` : path,
      headers: shape.headers,
      body: shape.body,
      auth: shape.auth,
    });
  };

  add('valid', {});

  // Path parameters: malformed, someone else's, the own value in upper case.
  for (const param of operation.pathParams) {
    const own = base.segments[param]!;
    const candidates = [
      ...random.sample(HOSTILE_SEGMENTS, n(8)),
      own.toUpperCase(),
      `${own}%00`,
      ...(values.foreignSegments[param] ? [values.foreignSegments[param]] : []),
    ];
    for (const segment of candidates) {
      add(`path ${param}=${preview(segment)}`, {
        segments: { ...base.segments, [param]: segment },
      });
    }
  }

  // Query parameters: hostile values, repeated, unknown, oversized.
  for (const { name } of operation.queryParams) {
    const others = base.query
      .split('&')
      .filter((pair) => pair && !pair.startsWith(`${name}=`))
      .join('&');
    for (const value of [...ALWAYS_QUERY_VALUES, ...random.sample(HOSTILE_QUERY_VALUES, n(4))]) {
      add(`query ${name}=${preview(value)}`, { query: join(others, `${name}=${value}`) });
    }
    add(`query ${name} repeated`, { query: join(others, `${name}=1&${name}=2`) });
    add(`query ${name}[] nested`, { query: join(others, `${name}[a]=1&${name}[__proto__]=x`) });
  }
  if (operation.queryParams.length > 0 || operation.method === 'get') {
    add('query unknown and pollution', {
      query: join(base.query, '__proto__[x]=1&constructor[prototype][x]=1&zzz=%00'),
    });
    add('query oversized', { query: join(base.query, `q=${'a'.repeat(12_000)}`) });
  }

  // Body fields, one at a time: missing, mistyped, hostile strings and numbers.
  if (operation.body !== null && baseBody !== undefined) {
    for (const field of fieldsOf(operation.body)) {
      const at = field.path.join('.');
      const values: unknown[] = [
        ...random.sample(WRONG_TYPES, n(3)),
        ...(field.schema.type === 'string' ? ALWAYS_STRINGS : []),
        ...random.sample(HOSTILE_STRINGS, n(field.schema.type === 'string' ? 4 : 2)),
        ...random.sample(HOSTILE_NUMBERS, n(field.schema.type === 'number' ? 3 : 1)),
      ];
      if (field.schema.type === 'array') {
        values.push(Array.from({ length: 2_000 }, (_, i) => `item-${i}`));
        values.push(random.sample(HOSTILE_STRINGS, 3));
      }
      for (const value of values) {
        add(`body ${at}=${preview(value)}`, { body: json(withField(baseBody, field.path, value)) });
      }
    }
    add('body extra field', { body: json({ ...(baseBody as object), isAdmin: true }) });
    add('body __proto__ key', {
      body: rawWith(baseBody, '"__proto__":{"isAdmin":true,"balanceMicro":"1"}'),
    });
    add('body constructor.prototype key', {
      body: rawWith(baseBody, '"constructor":{"prototype":{"isAdmin":true}}'),
    });
    add('body duplicate keys', { body: rawWith(baseBody, '"__dup":1,"__dup":2') });
  }

  // The body as a whole, whatever the operation expects.
  const bodies: Array<[string, Buffer]> = [
    ['empty', Buffer.alloc(0)],
    ['not JSON', Buffer.from('not json')],
    ['truncated', Buffer.from('{"a":')],
    ['array', Buffer.from('[]')],
    ['string', Buffer.from('"text"')],
    ['number', Buffer.from('1e308')],
    ['null', Buffer.from('null')],
    ['deep array', Buffer.from('['.repeat(20_000) + ']'.repeat(20_000))],
    ['deep object', Buffer.from('{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000))],
    ['over 100 kB', json({ filler: 'a'.repeat(110_000) })],
    ['lone surrogate escape', Buffer.from('{"name":"\\ud800","email":"\\udc00@x.co"}')],
    ['NUL escape', Buffer.from('{"name":"a\\u0000"}')],
    [
      'invalid UTF-8 bytes',
      Buffer.from([
        0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff, 0x22, 0x7d,
      ]),
    ],
    ['UTF-8 BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), base.body ?? Buffer.from('{}')])],
  ];
  for (const [label, body] of random.sample(bodies, n(bodies.length))) {
    add(`body ${label}`, { body, headers: { 'content-type': 'application/json' } });
  }

  // Hostile headers.
  const plain = base.body ?? Buffer.from('{}');
  const encodings = ['gzip', 'deflate', 'br', 'x-bogus', 'gzip, gzip', 'identity, gzip', 'GZIP'];
  for (const encoding of encodings) {
    add(`Content-Encoding ${encoding} on a plain body`, {
      body: plain,
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
    });
  }
  add('Content-Encoding gzip, real', {
    body: gzipSync(plain),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  add('Content-Encoding gzip bomb', {
    body: gzipBomb(),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
  });
  const types = [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    'application/json; charset=bogus',
    'application/json; charset=latin1',
    'application/xml',
    'application/json, text/plain',
  ];
  for (const type of random.sample(types, n(4))) {
    add(`Content-Type ${type}`, { body: plain, headers: { 'content-type': type } });
  }
  add('form body with pollution', {
    body: Buffer.from('a=1&__proto__[isAdmin]=1&constructor[prototype][x]=1'),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  add('oversized header', { headers: { 'x-fuzz': 'a'.repeat(20_000) } });
  const credentials: Array<[string, Record<string, string>]> = [
    ['garbage cookie', { cookie: 'scn_session=garbage' }],
    ['well-shaped unknown cookie', { cookie: `scn_session=${'A'.repeat(43)}` }],
    [
      'cookie with high bytes',
      { cookie: `scn_session=${Buffer.from('сессия').toString('latin1')}` },
    ],
    ['many cookies', { cookie: Array.from({ length: 300 }, (_, i) => `c${i}=${i}`).join('; ') }],
    ['malformed cookie', { cookie: 'scn_session="unterminated; =; ;;' }],
    ['Bearer without token', { authorization: 'Bearer' }],
    ['Bearer unknown token', { authorization: `Bearer ${'a'.repeat(43)}` }],
    ['Bearer oversized', { authorization: `Bearer ${'a'.repeat(8_000)}` }],
    ['Basic credentials', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
    ['Bearer SQL', { authorization: "Bearer ' OR '1'='1" }],
    ['Bearer high bytes', { authorization: `Bearer ${Buffer.from('токен').toString('latin1')}` }],
  ];
  for (const [label, headers] of random.sample(credentials, n(5))) {
    add(label, { headers, auth: 'raw' });
  }
  const keys = operation.headerParams.includes('idempotency-key')
    ? HOSTILE_IDEMPOTENCY_KEYS
    : random.sample(HOSTILE_IDEMPOTENCY_KEYS, 2);
  for (const key of keys) {
    add(`Idempotency-Key ${preview(key)}`, { headers: { 'idempotency-key': key } });
  }
  add('X-Forwarded-For garbage', {
    headers: { 'x-forwarded-for': `not-an-ip, ${'1.2.3.4, '.repeat(200)}::ffff:999.1.1.1` },
  });
  return cases;
}

let bomb: Buffer | null = null;
/** 3 MB of JSON in a few kB of gzip: the 100 kB limit holds for the inflated body. */
function gzipBomb(): Buffer {
  bomb ??= gzipSync(Buffer.from(`{"a":"${'a'.repeat(3_000_000)}"}`));
  return bomb;
}

function join(query: string, extra: string): string {
  return query ? `${query}&${extra}` : extra;
}

/** The valid body with raw JSON members added in front (keys JSON.stringify cannot write). */
function rawWith(body: unknown, members: string): Buffer {
  const text = JSON.stringify(body);
  if (!text.startsWith('{')) return Buffer.from(`{${members}}`);
  return Buffer.from(`{${members}${text.length > 2 ? ',' : ''}${text.slice(1)}`);
}

/** A short, printable form of a value for a label. */
function preview(value: unknown): string {
  const text = value === undefined ? '(missing)' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 30)}...(${text.length} chars)` : text;
}
