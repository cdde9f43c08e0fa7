import { describe, expect, it } from '@jest/globals';
import type { ReachabilityRow } from '@scn/proto';
import {
  asnLabel,
  countryName,
  networkText,
  reachabilityTone,
  relativeTime,
  sortReachabilityRows,
} from './reachability-display';

function row(state: ReachabilityRow['state'], measuredAt: string, asn = 1): ReachabilityRow {
  return {
    country: 'IR',
    asn,
    asnName: null,
    state,
    score: 0,
    observers: 1,
    probes: 0,
    measuredAt,
    blockedSince: null,
  };
}

describe('reachability display', () => {
  it('should keep an unmeasured server quiet and a blocked one a warning', () => {
    expect(reachabilityTone('works')).toBe('success');
    expect(reachabilityTone('blocked')).toBe('danger');
    expect(reachabilityTone('unknown')).toBe('quiet');
  });

  it('should name the network as "country · AS number name" when all is known', () => {
    expect(networkText({ country: 'IR', asn: 44244, asnName: 'Irancell' }, 'en')).toBe(
      'Iran · AS44244 Irancell',
    );
    expect(networkText({ country: 'IR', asn: null, asnName: null }, 'en')).toBe('Iran');
    expect(networkText({ country: 'RU', asn: 8359, asnName: null }, 'en')).toBe('Russia · AS8359');
  });

  it('should name nothing when the country is unknown', () => {
    expect(networkText({ country: null, asn: 44244, asnName: 'Irancell' }, 'en')).toBeNull();
    expect(networkText(null, 'en')).toBeNull();
  });

  it('should name countries in the reader language', () => {
    expect(countryName('IR', 'fa')).toBe('ایران');
    expect(countryName('RU', 'ru')).toBe('Россия');
    expect(countryName('CN', 'zh')).toBe('中国');
    expect(countryName('ir', 'en')).toBe('Iran');
  });

  it('should label an ASN with and without its name', () => {
    expect(asnLabel(44244, 'Irancell')).toBe('AS44244 Irancell');
    expect(asnLabel(44244, '  ')).toBe('AS44244');
    expect(asnLabel(null, 'Irancell')).toBeNull();
  });

  it('should put blocked rows first, then works, newest first within a state', () => {
    const rows = [
      row('works', '2026-01-01T00:00:00Z', 1),
      row('unknown', '2026-01-03T00:00:00Z', 2),
      row('blocked', '2026-01-01T00:00:00Z', 3),
      row('works', '2026-01-02T00:00:00Z', 4),
      row('blocked', '2026-01-02T00:00:00Z', 5),
    ];
    expect(sortReachabilityRows(rows).map((r) => r.asn)).toEqual([5, 3, 4, 1, 2]);
    expect(rows.map((r) => r.asn)).toEqual([1, 2, 3, 4, 5]);
  });

  it('should say how long ago a measurement was in the reader language', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(relativeTime('2026-01-01T11:55:00Z', now, 'en')).toBe('5 minutes ago');
    expect(relativeTime('2026-01-01T09:00:00Z', now, 'en')).toBe('3 hours ago');
    expect(relativeTime('2026-01-01T11:59:58Z', now, 'en')).toBe('now');
    expect(relativeTime('2025-12-30T12:00:00Z', now, 'en')).toBe('2 days ago');
    expect(relativeTime('2026-01-01T11:55:00Z', now, 'ru')).toBe('5 минут назад');
    expect(relativeTime('not a date', now, 'en')).toBe('not a date');
  });
});
