/**
 * The hostile values the fuzz suite draws from, by kind. Strings are JS strings: a lone
 * surrogate reaches the server as a `\ud800` escape (JSON.stringify writes it so).
 */

const combining = 'e' + '\u0301'.repeat(300);

/** Sent to every string field, whatever the seed: what PostgreSQL cannot store, and the limit. */
export const ALWAYS_STRINGS: readonly string[] = ['\ud800', 'x\u0000y', 'a'.repeat(70_000)];

/** Sent to every query parameter: past a bigint, NUL, an invalid UTF-8 escape, negative. */
export const ALWAYS_QUERY_VALUES: readonly string[] = [
  '9223372036854775808',
  '%00',
  '%ED%A0%80',
  '-1',
];

export const HOSTILE_STRINGS: readonly string[] = [
  // empty, blank, sizes
  '',
  ' ',
  '\t\n',
  'a'.repeat(257),
  'a'.repeat(5_001),
  'a'.repeat(70_000),
  '\u{1f600}'.repeat(20_000),
  // unicode edges
  '\ud800',
  'x\udfff',
  'a\ud83d',
  '\u0000',
  'x\u0000y',
  '\u202eevil\u202c',
  '\u200b\u200d\ufeff',
  '\u{1f680}\u{1f1e9}\u{1f1ea}',
  combining,
  '\uffff\ufffe',
  '\u{10ffff}',
  'İıßﬃ',
  '＠ｅｘａｍｐｌｅ．ｃｏｍ',
  'line\nbreak',
  '\u0085\u2028\u2029',
  '\u001b[31mred',
  // injection
  "' OR '1'='1",
  "'; DROP TABLE accounts; --",
  '" OR ""="',
  '\\',
  '%00',
  '%27%22',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '/%2e%2e/%2e%2e/etc/passwd',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '$(id)`id`',
  'a@b.co\r\nBcc: victim@example.com',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'null',
  'undefined',
  'NaN',
  '-1',
  '9223372036854775808',
  '1e308',
  '0x10',
  ' 1 ',
];

export const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -1,
  -0,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  2 ** 63,
  -(2 ** 63),
  5e-324,
  Number.MAX_SAFE_INTEGER,
];

/** Values of the wrong JSON type for any field (`undefined` = the field left out). */
export const WRONG_TYPES: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  'string',
  [],
  ['a', 1],
  {},
  { $gt: '' },
  [[[[[[[[[[]]]]]]]]]],
];

/** Path segments, already percent-encoded as they go on the wire. */
export const HOSTILE_SEGMENTS: readonly string[] = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '123',
  '-1',
  '9223372036854775808',
  '1e308',
  'NaN',
  'null',
  '%00',
  '%ED%A0%80',
  '%C0%AE%C0%AE',
  '%FF%FE',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%25',
  '%',
  "'%20OR%20'1'%3D'1",
  '__proto__',
  'constructor',
  'a'.repeat(300),
  'a'.repeat(5_000),
];

/** Query values, already percent-encoded. */
export const HOSTILE_QUERY_VALUES: readonly string[] = [
  '',
  '-1',
  '0',
  '1e308',
  '9223372036854775807',
  '9223372036854775808',
  '99999999999999999999',
  'NaN',
  'Infinity',
  '0x10',
  '1.5',
  '%00',
  '%ED%A0%80',
  '%E2%80%AE',
  "'%20OR%201%3D1--",
  '..%2F..%2F',
  'a'.repeat(2_000),
  '%FF',
  '%',
];

/** Idempotency-Key values that break its 1-128 of `A-Za-z0-9_.:-` rule, as header bytes. */
export const HOSTILE_IDEMPOTENCY_KEYS: readonly string[] = [
  '',
  ' ',
  'a'.repeat(129),
  'a'.repeat(8_000),
  'key with spaces',
  "'; DROP TABLE idempotency_keys; --",
  Buffer.from('ключ-\u{1f600}').toString('latin1'),
  '../../etc',
];
