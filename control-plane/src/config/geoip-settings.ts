import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { insideTestNets, parseCidr } from '../common/address-policy';

/** The four CSV files of ip-location-db that GeoIP reads (packaged, or newer ones in GEOIP_DIR). */
export const GEOIP_FILES = {
  asn4: 'asn-ipv4-num.csv',
  asn6: 'asn-ipv6-num.csv',
  country4: 'geo-whois-asn-country-ipv4-num.csv',
  country6: 'geo-whois-asn-country-ipv6-num.csv',
} as const;

/** One GEOIP_TEST_OVERRIDES entry: every address of the CIDR is placed here. */
export interface GeoIpOverride {
  cidr: string;
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
  country: string;
  asn: number;
  asnName: string | null;
}

const ENTRY_HELP =
  'must be CIDR=CC:ASN or CIDR=CC:ASN:name, e.g. 203.0.113.0/24=DE:3320:Deutsche Telekom';
const OUTSIDE_HELP =
  'is not a CIDR inside 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24 or 2001:db8::/32';

/**
 * GEOIP_TEST_OVERRIDES: comma-separated `CIDR=CC:ASN[:name]` (a name holds no comma; it may hold
 * colons). Only documentation ranges, so an override can never misplace a real client.
 */
export function parseGeoIpOverrides(text: string): {
  overrides: GeoIpOverride[];
  problems: string[];
} {
  const overrides: GeoIpOverride[] = [];
  const problems: string[] = [];
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const match = /^([^=\s]+)\s*=\s*([A-Za-z]{2}):(\d{1,10})(?::(.*))?$/.exec(entry);
    const cidr = match?.[1] ?? '';
    const parsed = parseCidr(cidr);
    const asn = Number(match?.[3]);
    if (!match || !parsed || asn > 0xffffffff) {
      problems.push(`GEOIP_TEST_OVERRIDES: "${entry}" ${ENTRY_HELP}`);
      continue;
    }
    if (!insideTestNets(cidr)) {
      problems.push(`GEOIP_TEST_OVERRIDES: ${cidr} ${OUTSIDE_HELP}`);
      continue;
    }
    const name = match[4]?.trim();
    overrides.push({
      cidr,
      ...parsed,
      country: match[2]!.toUpperCase(),
      asn,
      asnName: name ? name : null,
    });
  }
  return { overrides, problems };
}

/** GEOIP_DIR, when set, must hold all four files: a half-updated folder is a mistake. */
export function geoIpDirProblems(dir: string | undefined): string[] {
  if (dir === undefined) return [];
  const missing = Object.values(GEOIP_FILES).filter(
    (file) => !existsSync(join(resolve(dir), file)),
  );
  return missing.length === 0
    ? []
    : [`GEOIP_DIR=${JSON.stringify(dir)}: lacks ${missing.join(', ')} (it needs all four files)`];
}
